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
  private static final Pattern JUNIT4_JAR = Pattern.compile("junit-4\\.(\\d+)(\\.\\d+)?\\.jar");
  /**
   * The JUnit Platform that runs a JUnit 4-only module through the Vintage engine, as Surefire's junit4 provider
   * would run it. One fixed, recent release: the module brings no Platform of its own to match.
   */
  static final String VINTAGE_VERSION = "5.10.5";
  static final String PLATFORM_VERSION = "1.10.5";
  private static final String OPENTEST4J_VERSION = "1.3.0";

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
    Optional<Path> engineJar = engineJar(module);
    if (engineJar.isEmpty()) {
      Optional<Path> junit4 = junit4Jar(module);
      if (junit4.isPresent()) {
        return vintageFor(junit4.get(), module, projectRoot);
      }
    }
    Path engine = engineJar.orElseThrow(() -> new ProjectBuildException(
        "The module " + module.name(projectRoot) + " has no JUnit Platform and no JUnit 4 on its test class path. "
            + "racetriage runs JUnit 5 and JUnit 4 tests (TestNG is not supported): add "
            + "org.junit.jupiter:junit-jupiter or junit:junit in test scope."));
    Matcher version = ENGINE_JAR.matcher(engine.getFileName().toString());
    if (!version.matches()) {
      throw new ProjectBuildException("Cannot read the JUnit Platform version from " + engine);
    }
    String v = version.group(1);
    // <repo>/org/junit/platform/junit-platform-engine/<v>/junit-platform-engine-<v>.jar
    Path repository = engine.getParent().getParent().getParent().getParent().getParent().getParent();
    Path launcher = repository.resolve(Path.of("org", "junit", "platform", LAUNCHER, v, LAUNCHER + "-" + v + ".jar"));
    if (!Files.isRegularFile(launcher)) {
      fetch("org.junit.platform:" + LAUNCHER + ":" + v, projectRoot, launcher);
    }
    return List.of(launcher);
  }

  /**
   * A JUnit 4-only module: the Vintage engine and the Platform it needs (launcher, engine, commons, opentest4j) of
   * {@link #VINTAGE_VERSION}, fetched into the local repository next to the module's junit jar if missing.
   */
  private static List<Path> vintageFor(Path junit4, TestModule module, Path projectRoot)
      throws ProjectBuildException, InterruptedException {
    Matcher version = JUNIT4_JAR.matcher(junit4.getFileName().toString());
    if (version.matches() && Integer.parseInt(version.group(1)) < 12) {
      throw new ProjectBuildException("The module " + module.name(projectRoot) + " uses " + junit4.getFileName()
          + "; racetriage runs JUnit 4 tests through the JUnit Vintage engine, which needs JUnit 4.12 or later. "
          + "Upgrade junit:junit to 4.13.2 in the pom.");
    }
    // <repo>/junit/junit/<v>/junit-<v>.jar
    Path repository = junit4.getParent().getParent().getParent().getParent();
    List<Path> jars = List.of(
        artifact(repository, "org.junit.vintage", "junit-vintage-engine", VINTAGE_VERSION),
        artifact(repository, "org.junit.platform", LAUNCHER, PLATFORM_VERSION),
        artifact(repository, "org.junit.platform", "junit-platform-engine", PLATFORM_VERSION),
        artifact(repository, "org.junit.platform", "junit-platform-commons", PLATFORM_VERSION),
        artifact(repository, "org.opentest4j", "opentest4j", OPENTEST4J_VERSION));
    if (!jars.stream().allMatch(Files::isRegularFile)) {
      // the Vintage engine brings the Platform engine, commons and opentest4j along
      fetch("org.junit.vintage:junit-vintage-engine:" + VINTAGE_VERSION, projectRoot, jars.get(0));
      fetch("org.junit.platform:" + LAUNCHER + ":" + PLATFORM_VERSION, projectRoot, jars.get(1));
    }
    for (Path jar : jars) {
      if (!Files.isRegularFile(jar)) {
        throw new ProjectBuildException("Could not find " + jar + " after fetching the JUnit Vintage engine to run "
            + "the JUnit 4 tests of " + module.name(projectRoot) + ". Check that Maven can reach its repository.");
      }
    }
    return jars;
  }

  private static Path artifact(Path repository, String group, String artifact, String version) {
    Path dir = repository;
    for (String part : group.split("\\.")) dir = dir.resolve(part);
    return dir.resolve(artifact).resolve(version).resolve(artifact + "-" + version + ".jar");
  }

  static Optional<Path> junit4Jar(TestModule module) {
    return module.testClasspath().stream()
        .filter(p -> JUNIT4_JAR.matcher(p.getFileName().toString()).matches())
        .findFirst();
  }

  static Optional<Path> engineJar(TestModule module) {
    return module.testClasspath().stream()
        .filter(p -> ENGINE_JAR.matcher(p.getFileName().toString()).matches())
        .findFirst();
  }

  private static void fetch(String artifact, Path projectRoot, Path expected) throws ProjectBuildException, InterruptedException {
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
