package dev.racetriage.prefilter.report;

import java.nio.file.Path;

/** Paths in reports are relative to the scanned directory (with '/' separators) so they read the same everywhere. */
final class ReportPaths {
  private ReportPaths() {}

  static String relative(Path base, String file) {
    Path path = Path.of(file);
    Path shown = path.isAbsolute() && path.startsWith(base) ? base.relativize(path) : path;
    return shown.toString().replace('\\', '/');
  }
}
