package dev.racetriage.dashboard.export;

import java.util.Locale;

/** The export formats of {@code GET /api/export?format=…}. */
public enum ExportFormat {
  JSON("application/json", "json"),
  CSV("text/csv; charset=utf-8", "csv"),
  SARIF("application/sarif+json", "sarif");

  private final String contentType;
  private final String extension;

  ExportFormat(String contentType, String extension) {
    this.contentType = contentType;
    this.extension = extension;
  }

  public String contentType() {
    return contentType;
  }

  public String fileName() {
    return "racetriage-races." + extension;
  }

  public static ExportFormat parse(String value) {
    if (value == null || value.isBlank()) {
      return JSON;
    }
    try {
      return valueOf(value.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown export format '" + value + "'; use json, csv or sarif");
    }
  }
}
