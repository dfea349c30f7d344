package dev.racetriage.prefilter;

import dev.racetriage.prefilter.parse.Classpath;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Copies fixture sources from {@code src/test/resources/fixtures} into a Maven-shaped project in a temporary directory
 * (with the stand-in concurrency annotations) and scans it.
 */
final class Fixtures {

  static final List<String> ANNOTATIONS = List.of("annotations/GuardedBy", "annotations/ThreadSafe",
      "annotations/NotThreadSafe", "annotations/ThreadConfined");

  private Fixtures() {}

  /** A project made of the named fixtures ({@code "LossyCounterBad"}, {@code "annotations/GuardedBy"}). */
  static Path project(Path tempDir, String... fixtures) {
    Path sourceRoot = tempDir.resolve("src/main/java/fixtures");
    try {
      for (String fixture : concat(fixtures)) {
        Path target = sourceRoot.resolve(fixture + ".java");
        Files.createDirectories(target.getParent());
        try (InputStream in = Objects.requireNonNull(Fixtures.class.getResourceAsStream(
            "/fixtures/" + fixture + ".java"), "no fixture " + fixture)) {
          Files.copy(in, target);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tempDir;
  }

  /** Scans the fixtures with the JDK as the only library (as an editor that knows the classpath would). */
  static Analysis scan(Path tempDir, String... fixtures) {
    return Prefilter.open(project(tempDir, fixtures), Classpath.given(List.of())).scan();
  }

  /** The facts of one fixture file, parsed alone in a project of the given fixtures. */
  static dev.racetriage.prefilter.facts.FileFacts facts(Path tempDir, String fixture, String... others) {
    Path project = project(tempDir, concatOne(fixture, others));
    Path file = fileOf(project, fixture);
    dev.racetriage.prefilter.parse.JavaParser parser = new dev.racetriage.prefilter.parse.JavaParser(
        List.of(project.resolve("src/main/java")), Classpath.given(List.of()));
    try {
      return FileAnalyzer.analyze(file.toString(), parser.parseOne(file, Files.readString(file)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String[] concatOne(String first, String... rest) {
    String[] all = new String[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }

  static Path fileOf(Path project, String fixture) {
    return project.resolve("src/main/java/fixtures/" + fixture + ".java").toAbsolutePath().normalize();
  }

  private static List<String> concat(String... fixtures) {
    return java.util.stream.Stream.concat(ANNOTATIONS.stream(), java.util.Arrays.stream(fixtures)).toList();
  }
}
