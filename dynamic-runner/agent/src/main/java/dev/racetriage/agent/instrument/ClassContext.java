package dev.racetriage.agent.instrument;

import dev.racetriage.agent.detect.SiteTable;
import dev.racetriage.agent.runtime.FieldRegistry;
import dev.racetriage.agent.runtime.JumbleTargets;

/**
 * What the method instrumenters of one class share: where the class comes from (to resolve the fields it
 * references), and the tables its access sites and fields are registered in.
 *
 * @param internalName the class being transformed, {@code pkg/Cls}
 * @param sourceFile   the SourceFile attribute, or null
 * @param version      the class-file major version
 * @param jumble       the fields under trial in jumble mode; null in detect mode
 */
record ClassContext(String internalName, String sourceFile, int version, ClassLoader loader,
                    ClassHierarchy hierarchy, SiteTable sites, FieldRegistry fields,
                    JumbleTargets jumble) {

  String binaryName() {
    return internalName.replace('/', '.');
  }

  ClassContext withSourceFile(String file) {
    return new ClassContext(internalName, file, version, loader, hierarchy, sites, fields, jumble);
  }
}
