package dev.racetriage.runner.project;

import java.nio.file.Path;
import java.util.List;

/**
 * One Maven module whose tests racetriage can run: its compiled classes, its compiled tests, and the full test class
 * path (test classes first, then main classes, then the dependencies, as Surefire orders them).
 */
public record TestModule(Path dir, Path classes, Path testClasses, List<Path> testClasspath) {
  public TestModule {
    testClasspath = List.copyOf(testClasspath);
  }

  /** The module directory relative to the project root, for messages ("." for a single-module project). */
  public String name(Path projectRoot) {
    Path relative = projectRoot.toAbsolutePath().normalize().relativize(dir.toAbsolutePath().normalize());
    return relative.toString().isEmpty() ? "." : relative.toString();
  }
}
