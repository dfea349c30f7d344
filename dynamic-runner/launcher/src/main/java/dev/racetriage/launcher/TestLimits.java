package dev.racetriage.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * How long each test may run: a default ({@code --test-timeout-ms}, 0 for none) and per-test limits from the
 * {@code --test-limits} file, one {@code uniqueId<TAB>millis} per line (split at the last tab; blank lines and lines
 * starting with {@code #} are ignored).
 */
record TestLimits(long defaultMillis, Map<String, Long> byUniqueId) {
  static final TestLimits NONE = new TestLimits(0, Map.of());

  static TestLimits read(long defaultMillis, Path file) throws IOException {
    Map<String, Long> limits = new HashMap<>();
    if (file != null) {
      int number = 0;
      for (String line : Files.readAllLines(file)) {
        number++;
        if (line.isBlank() || line.startsWith("#")) continue;
        int tab = line.lastIndexOf('\t');
        try {
          if (tab <= 0) throw new NumberFormatException();
          limits.put(line.substring(0, tab), Long.parseLong(line.substring(tab + 1).strip()));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(file + " line " + number + ": expected 'uniqueId<TAB>millis', not '" + line + "'");
        }
      }
    }
    return new TestLimits(defaultMillis, Map.copyOf(limits));
  }

  /** The limit of one test in milliseconds; 0 means none. */
  long millisFor(String uniqueId) {
    return byUniqueId.getOrDefault(uniqueId, defaultMillis);
  }

  boolean any() {
    return defaultMillis > 0 || !byUniqueId.isEmpty();
  }
}
