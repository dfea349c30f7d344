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
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Builds a Maven project with its own build, up to the phase before Surefire's ({@code process-test-classes}: what
 * {@code mvn test} runs before the tests, so a plugin that post-processes the compiled tests — gson obfuscates a test
 * class with ProGuard there — has run), and, in the same Maven invocation, reads each module's test class path
 * (dependency plugin) and its effective POM (help plugin), from which each module's Surefire configuration comes. The
 * build goes on past a module that fails ({@code --fail-at-end}): the modules that built are triaged, and the project
 * notes name the ones that did not (gson's {@code test-jpms} needs the packaged jar, its {@code proto} a newer Maven).
 */
public final class ProjectBuilder {
  /** Written by the dependency plugin into each module's {@code target/}. */
  static final String CLASSPATH_FILE = "racetriage-test-classpath.txt";

  private static final String DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1";
  private static final String HELP_PLUGIN = "org.apache.maven.plugins:maven-help-plugin:3.5.1";
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
    ExternalCommand command;
    ExternalCommand.Outcome outcome;
    Path log;
    Path effectivePom;
    try {
      deleteClasspathFiles(root); // a module that does not build this time must not be read from an earlier build
      log = Files.createTempFile("racetriage-build", ".log");
      effectivePom = Files.createTempFile("racetriage-effective-pom", ".xml");
      command = new ExternalCommand(mavenCommand(root, effectivePom), root, Map.of());
      outcome = command.run(timeout, log);
    } catch (IOException e) {
      throw new ProjectBuildException(
          "Could not start Maven (" + mavenCommand(root, Path.of("effective-pom.xml")).get(0) + "): " + e.getMessage()
              + ". Install Maven 3.8+ and make sure 'mvn' is on the PATH.", e);
    }
    try {
      return read(root, command, outcome, log, effectivePom);
    } finally {
      try {
        Files.deleteIfExists(effectivePom);
      } catch (IOException ignored) {
        // a temporary file left behind
      }
    }
  }

  private MavenProject read(Path root, ExternalCommand command, ExternalCommand.Outcome outcome, Path log,
      Path effectivePom) throws ProjectBuildException {
    if (outcome.timedOut()) {
      throw new ProjectBuildException(
          "Building " + root + " took longer than " + timeout.toSeconds() + " s and was stopped. Its output is in " + log + ".");
    }
    ProjectBuildException failed = outcome.succeeded() ? null : new ProjectBuildException(
        "The project in " + root + " does not build ('mvn " + PHASE + "' exited with " + outcome.exitCode()
            + "). Fix the build, check with 'mvn " + PHASE + "', and run racetriage again. The build said:"
            + System.lineSeparator() + BuildErrors.essence(outcome.tail(ERROR_TAIL_LINES))
            + System.lineSeparator() + "(the whole output: " + log + ")");
    List<TestModule> modules;
    EffectivePom pom;
    try {
      pom = EffectivePom.read(effectivePom);
      modules = readModules(root, pom);
    } catch (IOException e) {
      if (failed != null) {
        throw failed; // the build stopped before the class paths or the effective POM were written
      }
      throw new ProjectBuildException("Could not read the test class path or the effective POM of " + root + ": "
          + e.getMessage(), e);
    }
    if (failed != null && modules.isEmpty()) {
      throw failed;
    }
    MavenProject project = project(root, modules);
    if (failed != null) {
      java.util.Set<String> failedNames = failedNames(outcome.tail(4 * ERROR_TAIL_LINES));
      List<String> notes = new ArrayList<>();
      notes.add("Part of the build failed ('mvn " + PHASE + "' exited with " + outcome.exitCode() + "): "
          + (failedNames.isEmpty() ? "some modules" : "module(s) " + String.join(", ", failedNames))
          + " did not build, so their tests are not run" + unbuilt(root, pom, modules, failedNames) + "; the other "
          + modules.size() + " module(s) with tests are. The build said:" + System.lineSeparator()
          + BuildErrors.essence(outcome.tail(ERROR_TAIL_LINES)) + System.lineSeparator() + "(the whole output: " + log
          + ")");
      notes.addAll(project.notes());
      return new MavenProject(project.root(), project.modules(), notes);
    }
    try {
      Files.deleteIfExists(log);
    } catch (IOException ignored) {
      // a temporary file left behind
    }
    return project;
  }

  /** The phase the build runs to: the last before Surefire's {@code test}. */
  static final String PHASE = "process-test-classes";

  /** The modules Maven names in its "Failed to execute goal … on project NAME" lines (artifactIds). */
  private static java.util.Set<String> failedNames(String output) {
    java.util.Set<String> names = new java.util.LinkedHashSet<>();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("on project ([^\\s:]+)").matcher(output);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  /**
   * The modules with test sources that the effective POM describes and the build did not produce a class path for
   * besides those Maven names as {@code failed} (those Maven skipped because a module they depend on failed), as
   * {@code " (nor did a, b, skipped after it)"}, or empty.
   */
  static String unbuilt(Path root, EffectivePom pom, List<TestModule> built, java.util.Set<String> failed) {
    java.util.Set<Path> read = new java.util.HashSet<>();
    built.forEach(m -> read.add(m.dir().toAbsolutePath().normalize()));
    List<String> names = new ArrayList<>();
    for (EffectivePom.Module m : pom.modules()) {
      Path dir = m.baseDir().toAbsolutePath().normalize();
      Path tests = Dom.child(m.project(), "build").flatMap(b -> Dom.text(b, "testSourceDirectory")).map(Path::of)
          .orElse(dir.resolve("src/test/java"));
      String artifactId = Dom.text(m.project(), "artifactId").orElse("");
      if (!read.contains(dir) && Files.isDirectory(tests) && !failed.contains(artifactId)) {
        String name = root.toAbsolutePath().normalize().relativize(dir).toString();
        names.add(name.isEmpty() ? "." : name);
      }
    }
    return names.isEmpty() ? "" : " (nor did " + String.join(", ", names) + ", skipped after it)";
  }

  /** Deletes the test class path files an earlier build left in {@code root}'s modules. */
  private static void deleteClasspathFiles(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root, 12)) {
      for (Path p : files.filter(p -> p.getFileName().toString().equals(CLASSPATH_FILE))
          .filter(p -> p.getParent().getFileName().toString().equals("target")).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** The modules whose tests {@code mvn test} would run, and a note for each it would skip. */
  static MavenProject project(Path root, List<TestModule> found) {
    List<TestModule> modules = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    for (TestModule module : found) {
      if (module.surefire().skipped()) {
        notes.add("The tests of " + module.name(root) + " are not run: " + module.surefire().skipReason().get()
            + ", so 'mvn test' skips them too.");
      } else {
        modules.add(module);
      }
    }
    return new MavenProject(root, modules, notes);
  }

  /** The project's Maven wrapper when it has one, else {@code mvn} from the PATH. */
  static List<String> mavenCommand(Path root, Path effectivePom) {
    Path wrapper = root.resolve("mvnw");
    String mvn = Files.isExecutable(wrapper) ? wrapper.toString() : "mvn";
    return List.of(
        mvn, "-B", "-q", "-Dstyle.color=never", "--fail-at-end",
        PHASE,
        DEPENDENCY_PLUGIN + ":build-classpath",
        "-Dmdep.includeScope=test",
        "-Dmdep.outputFile=target/" + CLASSPATH_FILE,
        // an aggregator: in a reactor it runs once, after the modules, and writes them all into one file
        HELP_PLUGIN + ":effective-pom",
        "-Doutput=" + effectivePom.toAbsolutePath());
  }

  /**
   * Every module (the root included) that has compiled tests, in path order, with its Surefire configuration (Surefire's
   * defaults for a module the effective POM does not describe).
   */
  static List<TestModule> readModules(Path root, EffectivePom pom) throws IOException {
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
      Optional<EffectivePom.Module> described = pom.module(moduleDir);
      Path classes = described.flatMap(EffectivePom.Module::outputDirectory).orElse(moduleDir.resolve("target/classes"));
      Path testClasses = described.flatMap(EffectivePom.Module::testOutputDirectory)
          .orElse(moduleDir.resolve("target/test-classes"));
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
      SurefireConfig surefire = described.map(m -> SurefireConfigReader.read(m.project(), moduleDir))
          .orElse(SurefireConfig.DEFAULTS);
      modules.add(new TestModule(moduleDir, classes, testClasses, surefire.testClasspath(classpath), surefire));
    }
    return modules;
  }
}
