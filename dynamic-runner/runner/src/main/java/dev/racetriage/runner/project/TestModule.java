package dev.racetriage.runner.project;

import java.nio.file.Path;
import java.util.List;

/**
 * One Maven module whose tests racetriage can run: its compiled classes, its compiled tests, the full test class
 * path (test classes first, then main classes, then the dependencies, as Surefire orders them), and how its Surefire
 * configuration says the tests run.
 */
public record TestModule(Path dir, Path classes, Path testClasses, List<Path> testClasspath, SurefireConfig surefire) {
  public TestModule {
    testClasspath = List.copyOf(testClasspath);
  }

  /** A module with Surefire's defaults. */
  public TestModule(Path dir, Path classes, Path testClasses, List<Path> testClasspath) {
    this(dir, classes, testClasses, testClasspath, SurefireConfig.DEFAULTS);
  }

  /** The module directory relative to the project root, for messages ("." for a single-module project). */
  public String name(Path projectRoot) {
    Path relative = projectRoot.toAbsolutePath().normalize().relativize(dir.toAbsolutePath().normalize());
    return relative.toString().isEmpty() ? "." : relative.toString();
  }

  /** Where the module's test JVM runs: Surefire's {@code workingDirectory}, else the module directory. */
  public Path workingDirectory() {
    return surefire.workingDirectory().orElse(dir);
  }
}
