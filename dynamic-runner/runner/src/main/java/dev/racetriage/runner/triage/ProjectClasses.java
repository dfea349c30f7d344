package dev.racetriage.runner.triage;

import dev.racetriage.runner.project.TestModule;
import dev.racetriage.store.FieldKey;
import java.nio.file.Files;
import java.util.List;

/**
 * Whether a field belongs to the project: its class was compiled by one of the project's modules (main or test
 * classes). A race on a library's field (Jetty's, HttpClient's) is real, but not the project's to fix: the tests
 * merely drove the library there. SpotBugs and Infer report the project's own code; racetriage triages the project's
 * fields and names the library races it left out.
 */
final class ProjectClasses {
  private final List<TestModule> modules;

  ProjectClasses(List<TestModule> modules) {
    this.modules = List.copyOf(modules);
  }

  boolean owns(String fieldKey) {
    String classFile;
    try {
      classFile = FieldKey.parse(fieldKey).className().replace('.', '/') + ".class";
    } catch (IllegalArgumentException e) {
      return true; // not a key the project could name otherwise: keep it, the store will say what is wrong
    }
    for (TestModule module : modules) {
      if (Files.isRegularFile(module.classes().resolve(classFile))
          || Files.isRegularFile(module.testClasses().resolve(classFile))) {
        return true;
      }
    }
    return false;
  }
}
