package dev.racetriage.prefilter.report;

import dev.racetriage.prefilter.Analysis;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** The output formats of a scan. */
public enum ReportFormat {
  TEXT,
  JSON,
  SARIF;

  public static Optional<ReportFormat> parse(String name) {
    return Arrays.stream(values()).filter(f -> f.name().equalsIgnoreCase(name.trim())).findFirst();
  }

  public static String names() {
    return Arrays.stream(values()).map(f -> f.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "));
  }

  public String render(Analysis analysis, Path baseDir, String toolVersion) {
    return switch (this) {
      case TEXT -> TextReport.render(analysis, baseDir);
      case JSON -> JsonReport.render(analysis, baseDir);
      case SARIF -> SarifReport.render(analysis, baseDir, toolVersion);
    };
  }
}
