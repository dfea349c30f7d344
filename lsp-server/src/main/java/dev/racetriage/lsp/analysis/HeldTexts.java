package dev.racetriage.lsp.analysis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which text of each file the project's prefilter holds, so that text it already analysed is not parsed again:
 * opening a file that is unchanged since the scan, closing a buffer whose text equals the disk, saving. A file the
 * server never gave text for holds what the batch scan read, which is only trusted when the file has not been modified
 * since shortly before the scan started (file-system timestamps can be coarse). Not thread-safe: its owner serialises.
 */
final class HeldTexts {
  /** Timestamps within this margin of the scan's start are not trusted to predate it. */
  static final long TIMESTAMP_MARGIN_MILLIS = 2_000;

  private final long scanStartedMillis;
  // absent: as the scan read it; empty: unknown (removed, or failed to read); present: that text
  private final Map<Path, Optional<String>> given = new HashMap<>();

  HeldTexts(long scanStartedMillis) {
    this.scanStartedMillis = scanStartedMillis;
  }

  /** Whether the prefilter's facts for {@code file} come from exactly {@code text}. */
  boolean holds(Path file, String text) {
    Optional<String> held = given.get(key(file));
    if (held != null) {
      return held.isPresent() && held.get().equals(text);
    }
    try {
      return Files.getLastModifiedTime(file).toMillis() < scanStartedMillis - TIMESTAMP_MARGIN_MILLIS
          && Files.readString(file, StandardCharsets.UTF_8).equals(text);
    } catch (IOException | RuntimeException unreadable) {
      return false;
    }
  }

  void gave(Path file, String text) {
    given.put(key(file), Optional.of(text));
  }

  void forgot(Path file) {
    given.put(key(file), Optional.empty());
  }

  private static Path key(Path file) {
    return file.toAbsolutePath().normalize();
  }
}
