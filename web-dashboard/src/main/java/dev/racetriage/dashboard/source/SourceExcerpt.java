package dev.racetriage.dashboard.source;

import java.util.List;

/** Lines {@code firstLine..} of a project file around {@code focusLine}; {@code path} is relative to the project. */
public record SourceExcerpt(String path, int focusLine, int firstLine, List<String> lines, int totalLines) {
  public SourceExcerpt {
    lines = List.copyOf(lines);
  }
}
