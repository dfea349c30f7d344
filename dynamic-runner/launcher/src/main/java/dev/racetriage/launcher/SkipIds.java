package dev.racetriage.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The {@code --skip-ids} file: one JUnit unique id per line, of tests and containers not to run again — what an earlier
 * JVM already finished, and the unit that hung or crashed it. A container's id skips everything under it. Blank lines
 * and lines starting with {@code #} are ignored.
 */
final class SkipIds {
  private SkipIds() {}

  static Set<String> read(Path file) throws IOException {
    Set<String> ids = new LinkedHashSet<>();
    if (file == null) return ids;
    for (String line : Files.readAllLines(file)) {
      String id = line.strip();
      if (!id.isEmpty() && !id.startsWith("#")) ids.add(id);
    }
    return ids;
  }
}
