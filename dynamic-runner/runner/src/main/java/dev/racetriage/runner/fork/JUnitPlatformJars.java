package dev.racetriage.runner.fork;

import dev.racetriage.runner.process.ExternalCommand;
import dev.racetriage.runner.project.ProjectBuildException;
import dev.racetriage.runner.project.TestModule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the JUnit Platform Launcher jar that matches a module's own {@code junit-platform-engine}: mixing a launcher
 * of one version with an engine of another is the classic "OutputDirectoryProvider not available" crash, so
 * racetriage never brings its own launcher version.
 */
public final class JUnitPlatformJars {
  private static final Pattern ENGINE_JAR = Pattern.compile("junit-platform-engine-(\\d[^/\\\\]*)\\.jar");
  private static final String LAUNCHER = "junit-platform-launcher";

  private JUnitPlatformJars() {}

  /**
   * The extra class path entries a module needs to run its tests through the launcher: none when the launcher is
   * already on its test class path, else the launcher jar of the engine's version (downloaded by Maven if the local
   * repository lacks it).
   */
  public static List<Path> launcherFor(TestModule module, Path projectRoot) throws ProjectBuildException, InterruptedException {
    if (module.testClasspath().stream().anyMatch(p -> p.getFileName().toString().startsWith(LAUNCHER + "-"))) {
      return List.of();
    }
    Path engine = engineJar(module).orElseThrow(() -> new ProjectBuildException(
        "The module " + module.name(projectRoot) + " has no JUnit Platform on its test class path. racetriage runs "
            + "JUnit 5 tests (and JUnit 4 tests through junit-vintage-engine): add org.junit.jupiter:junit-jupiter "
            + "(or junit-vintage-engine) in test scope."));
    Matcher version = ENGINE_JAR.matcher(engine.getFileName().toString());
    if (!version.matches()) {
      throw new ProjectBuildException("Cannot read the JUnit Platform version from " + engine);
    }
    String v = version.group(1);
    // <repo>/org/junit/platform/junit-platform-engine/<v>/junit-platform-engine-<v>.jar
    Path repository = engine.getParent().getParent().getParent().getParent().getParent().getParent();
    Path launcher = repository.resolve(Path.of("org", "junit", "platform", LAUNCHER, v, LAUNCHER + "-" + v + ".jar"));
    if (!Files.isRegularFile(launcher)) {
      fetch(v, projectRoot, launcher);
    }
    return List.of(launcher);
  }

  static Optional<Path> engineJar(TestModule module) {
    return module.testClasspath().stream()
        .filter(p -> ENGINE_JAR.matcher(p.getFileName().toString()).matches())
        .findFirst();
  }

  private static void fetch(String version, Path projectRoot, Path expected) throws ProjectBuildException, InterruptedException {
    String artifact = "org.junit.platform:" + LAUNCHER + ":" + version;
    ExternalCommand get = new ExternalCommand(
        List.of("mvn", "-B", "-q", "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get", "-Dartifact=" + artifact),
        projectRoot, Map.of());
    try {
      Path log = Files.createTempFile("racetriage-launcher", ".log");
      ExternalCommand.Outcome outcome = get.run(Duration.ofMinutes(5), log);
      if (!outcome.succeeded() || !Files.isRegularFile(expected)) {
        throw new ProjectBuildException("Could not fetch " + artifact + " to run the tests (" + get + "):"
            + System.lineSeparator() + outcome.tail(20));
      }
      Files.deleteIfExists(log);
    } catch (IOException e) {
      throw new ProjectBuildException("Could not fetch " + artifact + ": " + e.getMessage(), e);
    }
  }
}
