package dev.racetriage.runner.project;

import dev.racetriage.runner.process.ExternalCommand;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Builds a Maven project with its own build ({@code test-compile}) and reads each module's test class path from the
 * dependency plugin, in one Maven invocation.
 */
public final class ProjectBuilder {
  /** Written by the dependency plugin into each module's {@code target/}. */
  static final String CLASSPATH_FILE = "racetriage-test-classpath.txt";

  private static final String DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1";
  private static final int ERROR_TAIL_LINES = 40;

  private final Duration timeout;

  public ProjectBuilder(Duration timeout) {
    this.timeout = timeout;
  }

  public MavenProject build(Path projectDir) throws ProjectBuildException, InterruptedException {
    Path root = projectDir.toAbsolutePath().normalize();
    if (!Files.isDirectory(root)) {
      throw new ProjectBuildException(root + " does not exist or is not a directory.");
    }
    if (!Files.isRegularFile(root.resolve("pom.xml"))) {
      throw new ProjectBuildException(
          root + " is not a Maven project (no pom.xml). Point racetriage at the directory that holds the project's pom.xml.");
    }
    ExternalCommand command = new ExternalCommand(mavenCommand(root), root, Map.of());
    ExternalCommand.Outcome outcome;
    Path log;
    try {
      log = Files.createTempFile("racetriage-build", ".log");
      outcome = command.run(timeout, log);
    } catch (IOException e) {
      throw new ProjectBuildException(
          "Could not start Maven (" + command.command().get(0) + "): " + e.getMessage()
              + ". Install Maven 3.8+ and make sure 'mvn' is on the PATH.", e);
    }
    if (outcome.timedOut()) {
      throw new ProjectBuildException(
          "Building " + root + " took longer than " + timeout.toSeconds() + " s and was stopped. Its output is in " + log + ".");
    }
    if (!outcome.succeeded()) {
      throw new ProjectBuildException(
          "The project in " + root + " does not build (" + command + " exited with " + outcome.exitCode() + "). "
              + "Fix the build, check with 'mvn test-compile', and run racetriage again. The build said:"
              + System.lineSeparator() + outcome.tail(ERROR_TAIL_LINES));
    }
    try {
      Files.deleteIfExists(log);
      return new MavenProject(root, readModules(root));
    } catch (IOException e) {
      throw new ProjectBuildException("Could not read the test class path of " + root + ": " + e.getMessage(), e);
    }
  }

  /** The project's Maven wrapper when it has one, else {@code mvn} from the PATH. */
  static List<String> mavenCommand(Path root) {
    Path wrapper = root.resolve("mvnw");
    String mvn = Files.isExecutable(wrapper) ? wrapper.toString() : "mvn";
    return List.of(
        mvn, "-B", "-q",
        "test-compile",
        DEPENDENCY_PLUGIN + ":build-classpath",
        "-Dmdep.includeScope=test",
        "-Dmdep.outputFile=target/" + CLASSPATH_FILE);
  }

  /** Every module (the root included) that has compiled tests, in path order. */
  static List<TestModule> readModules(Path root) throws IOException {
    List<Path> classpathFiles;
    try (Stream<Path> files = Files.walk(root, 12)) {
      classpathFiles = files
          .filter(p -> p.getFileName().toString().equals(CLASSPATH_FILE))
          .filter(p -> p.getParent().getFileName().toString().equals("target"))
          .sorted(Comparator.naturalOrder())
          .toList();
    }
    List<TestModule> modules = new ArrayList<>();
    for (Path file : classpathFiles) {
      Path moduleDir = file.getParent().getParent();
      Path classes = moduleDir.resolve("target/classes");
      Path testClasses = moduleDir.resolve("target/test-classes");
      if (!Files.isDirectory(testClasses)) {
        continue;
      }
      List<Path> classpath = new ArrayList<>();
      classpath.add(testClasses);
      classpath.add(classes);
      String content = Files.readString(file).trim();
      if (!content.isEmpty()) {
        for (String entry : content.split(File.pathSeparator)) {
          classpath.add(Path.of(entry));
        }
      }
      modules.add(new TestModule(moduleDir, classes, testClasses, classpath));
    }
    return modules;
  }
}
