package dev.racetriage.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The repository's example projects, copied so a test may edit and triage them. */
final class Examples {
  private Examples() {}

  /** A copy of {@code examples/racy-shapes} in {@code dir}, without build output or a database. */
  static Path copyRacyShapes(Path dir) throws IOException {
    Path source = Path.of("..", "examples", "racy-shapes").toAbsolutePath().normalize();
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Path relative = source.relativize(file);
        if (relative.startsWith("target") || relative.startsWith(".racetriage")) continue;
        Path target = dir.resolve(relative.toString());
        Files.createDirectories(target.getParent());
        Files.copy(file, target);
      }
    }
    return dir;
  }
}
