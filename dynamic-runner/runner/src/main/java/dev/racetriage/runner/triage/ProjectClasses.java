package dev.racetriage.runner.triage;

import dev.racetriage.runner.project.TestModule;
import dev.racetriage.store.FieldKey;
import java.nio.file.Files;
import java.util.List;

/**
 * Whether a field belongs to the project: its class was compiled by one of the project's modules (main or test
 * classes). A race on a library's field (Jetty's, HttpClient's) is real, but not the project's to fix: the tests
 * merely drove the library there. SpotBugs and Infer report the project's own code; racetriage triages the project's
 * fields and names the library races it left out. A multi-release build's classes for later Java versions
 * ({@code META-INF/versions/N/…} under the classes directory, put on the test class path by Surefire's
 * {@code additionalClasspathElements}) are the project's too.
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
      try (var versions = Files.list(module.classes().resolve("META-INF/versions"))) {
        if (versions.anyMatch(v -> Files.isRegularFile(v.resolve(classFile)))) {
          return true;
        }
      } catch (java.io.IOException | java.io.UncheckedIOException noVersions) {
        // not a multi-release build
      }
    }
    return false;
  }
}
