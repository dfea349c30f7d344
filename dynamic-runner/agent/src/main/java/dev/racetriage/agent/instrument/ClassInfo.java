package dev.racetriage.agent.instrument;

import java.util.List;
import java.util.Map;

/**
 * What the instrumenter needs to know about a class it has not loaded: its supertypes (for stack-map frames) and
 * the access flags of its declared fields (volatile and final accesses are treated differently).
 */
record ClassInfo(String name, String superName, List<String> interfaces, boolean isInterface,
                 Map<String, Integer> fieldAccess) {

  ClassInfo {
    interfaces = List.copyOf(interfaces);
    fieldAccess = Map.copyOf(fieldAccess);
  }
}
