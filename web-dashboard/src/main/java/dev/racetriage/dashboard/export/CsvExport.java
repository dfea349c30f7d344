package dev.racetriage.dashboard.export;

import dev.racetriage.dashboard.api.RaceRow;
import java.util.List;
import java.util.stream.Collectors;

/**
 * RFC 4180 CSV, one race a row. Cells that a spreadsheet would take for a formula ({@code = + - @}, tab, CR) get a
 * leading apostrophe: failure messages come from test output and must not run as formulas when the file is opened.
 */
public final class CsvExport {
  static final List<String> HEADER = List.of(
      "field", "verdict", "state", "kinds", "tests", "trials", "summary", "file", "line", "mark_author", "mark_note",
      "replay_command", "last_seen", "test_code");

  private CsvExport() {}

  public static String write(List<ExportedRace> races) {
    StringBuilder out = new StringBuilder();
    row(out, HEADER);
    for (ExportedRace race : races) {
      RaceRow r = race.race();
      ExportedRace.Access first = race.accesses().isEmpty() ? null : race.accesses().get(0);
      row(out, List.of(
          r.id(),
          r.verdict(),
          r.state(),
          String.join("+", r.kinds()),
          Integer.toString(r.tests()),
          Integer.toString(r.trials()),
          nullToEmpty(race.summary()),
          first == null ? "" : nullToEmpty(first.projectPath() != null ? first.projectPath() : first.file()),
          first == null ? "" : Integer.toString(first.line()),
          r.mark() == null ? "" : r.mark().author(),
          r.mark() == null ? "" : r.mark().note(),
          nullToEmpty(race.replayCommand()),
          r.lastSeenAt() == null ? "" : r.lastSeenAt().toString(),
          Boolean.toString(race.testCode())));
    }
    return out.toString();
  }

  private static void row(StringBuilder out, List<String> cells) {
    out.append(cells.stream().map(CsvExport::cell).collect(Collectors.joining(","))).append("\r\n");
  }

  static String cell(String value) {
    String text = value;
    if (!text.isEmpty() && "=+-@\t\r".indexOf(text.charAt(0)) >= 0) {
      text = "'" + text;
    }
    if (text.contains(",") || text.contains("\"") || text.contains("\n") || text.contains("\r")) {
      return "\"" + text.replace("\"", "\"\"") + "\"";
    }
    return text;
  }

  private static String nullToEmpty(String value) {
    return value == null ? "" : value;
  }
}
