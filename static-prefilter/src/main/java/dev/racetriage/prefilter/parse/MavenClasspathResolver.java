package dev.racetriage.prefilter.parse;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Asks Maven for a project's test classpath ({@code mvn dependency:build-classpath}). Never throws: a project without
 * a pom, a machine without Maven, or a build that fails gives {@link Classpath#none} with the reason, and the analysis
 * goes on with lower confidence.
 */
public final class MavenClasspathResolver {

  private final String mavenExecutable;
  private final Duration timeout;

  public MavenClasspathResolver() {
    this(defaultExecutable(), Duration.ofMinutes(3));
  }

  public MavenClasspathResolver(String mavenExecutable, Duration timeout) {
    this.mavenExecutable = mavenExecutable;
    this.timeout = timeout;
  }

  private static String defaultExecutable() {
    String fromEnv = System.getenv("RACETRIAGE_MVN");
    if (fromEnv != null && !fromEnv.isBlank()) {
      return fromEnv;
    }
    return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows") ? "mvn.cmd" : "mvn";
  }

  public Classpath resolve(Path projectDir) {
    if (!Files.isRegularFile(projectDir.resolve("pom.xml"))) {
      return Classpath.none("no pom.xml in " + projectDir + "; library types stay unresolved");
    }
    Path output = null;
    Path log = null;
    try {
      output = Files.createTempFile("racetriage-classpath", ".txt");
      log = Files.createTempFile("racetriage-mvn", ".log");
      // appendOutput: in a multi-module project every module adds its classpath to the same file.
      List<String> command = List.of(mavenExecutable, "-q", "-B", "dependency:build-classpath",
          "-Dmdep.outputFile=" + output, "-Dmdep.appendOutput=true", "-Dmdep.includeScope=test");
      Process process = new ProcessBuilder(command).directory(projectDir.toFile())
          .redirectErrorStream(true).redirectOutput(log.toFile()).start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        return Classpath.none("'mvn dependency:build-classpath' did not finish within " + timeout.toSeconds()
            + " s in " + projectDir);
      }
      if (process.exitValue() != 0) {
        return Classpath.none("'mvn dependency:build-classpath' failed in " + projectDir + ": " + lastLines(log));
      }
      return new Classpath(parse(Files.readString(output, StandardCharsets.UTF_8)), ClasspathStatus.MAVEN,
          "from 'mvn dependency:build-classpath' in " + projectDir);
    } catch (IOException e) {
      return Classpath.none("could not run '" + mavenExecutable + "' (" + e.getMessage()
          + "); install Maven or set RACETRIAGE_MVN");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Classpath.none("interrupted while asking Maven for the classpath");
    } finally {
      deleteQuietly(output);
      deleteQuietly(log);
    }
  }

  static List<Path> parse(String text) {
    Set<Path> entries = new LinkedHashSet<>();
    for (String line : text.split("\\R")) {
      for (String entry : line.split(File.pathSeparator)) {
        if (!entry.isBlank()) {
          entries.add(Path.of(entry.trim()));
        }
      }
    }
    return new ArrayList<>(entries);
  }

  private static String lastLines(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    List<String> tail = lines.subList(Math.max(0, lines.size() - 5), lines.size());
    return tail.isEmpty() ? "no output" : String.join(" | ", tail);
  }

  private static void deleteQuietly(Path path) {
    if (path != null) {
      try {
        Files.deleteIfExists(path);
      } catch (IOException ignored) {
        // a temp file left behind is harmless
      }
    }
  }
}
