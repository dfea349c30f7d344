package dev.racetriage.agent.instrument;

import java.util.List;
import java.util.Map;

/**
 * What the instrumenter needs to know about a class it has not loaded: its supertypes (for stack-map frames) and
 * the access flags of its declared fields (volatile and final accesses are treated differently), and whether its own
 * initialisation is quiet ({@link #quietInit}).
 *
 * @param quietInit the class has no {@code <clinit>}, or one that cannot synchronise or run other code: only
 *                  constants, locals, arithmetic, branches, primitive arrays and its own static fields (so a loop that
 *                  touches one of its statics first cannot change its thread's clock by initialising it — its
 *                  superclasses permitting)
 */
record ClassInfo(String name, String superName, List<String> interfaces, boolean isInterface,
                 Map<String, Integer> fieldAccess, boolean quietInit) {

  ClassInfo {
    interfaces = List.copyOf(interfaces);
    fieldAccess = Map.copyOf(fieldAccess);
  }
}
