package dev.racetriage.cli;

import java.util.List;

/** Left-aligned text columns, two spaces apart, for the terminal tables of {@code triage} and {@code report}. */
final class Columns {
  private Columns() {}

  static String render(List<String[]> rows) {
    int[] widths = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) widths[i] = Math.max(widths[i], row[i].length());
    }
    StringBuilder out = new StringBuilder();
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        line.append(i == row.length - 1 ? row[i] : pad(row[i], widths[i] + 2));
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    return out.toString();
  }

  private static String pad(String s, int width) {
    return s.length() >= width ? s + " " : s + " ".repeat(width - s.length());
  }
}
