package dev.racetriage.cli;

import dev.racetriage.dashboard.export.ExportedRace;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * {@code racetriage report}'s human formats: a terminal table with a paragraph per race, and the Markdown a CI job
 * posts on a pull request. Both say the same things: verdict and state, every access as {@code file:line}, the first
 * lines of the first failure, the fix advice and the replay command.
 */
final class ReportText {
  /** Lines of a failure shown: the exception and the top of its stack. */
  static final int FAILURE_LINES = 4;

  private ReportText() {}

  /**
   * The terminal report. {@code apart}: the test-code races (every access under {@code src/test}) follow the product's
   * under a heading of their own, with their own table; otherwise they are listed among the others, labelled.
   */
  static String table(List<ExportedRace> races, int unreadable, boolean apart) {
    StringBuilder out = new StringBuilder();
    if (races.isEmpty()) {
      out.append("No stored race matches (run 'racetriage triage' first, or widen --verdict/--state/--field/--scope).\n");
      return note(out, unreadable);
    }
    if (!apart) {
      tableSection(out, races);
      return note(out, unreadable);
    }
    List<ExportedRace> product = races.stream().filter(r -> !r.testCode()).toList();
    List<ExportedRace> tests = races.stream().filter(ExportedRace::testCode).toList();
    if (product.isEmpty()) out.append("No race in the product's code matches.\n");
    else tableSection(out, product);
    if (!tests.isEmpty()) {
      out.append('\n').append(TEST_CODE_HEADING).append(" (").append(tests.size()).append("): ").append(TEST_CODE_MEANS)
          .append("\n\n");
      tableSection(out, tests);
    }
    return note(out, unreadable);
  }

  static final String TEST_CODE_HEADING = "Races in test code";
  static final String TEST_CODE_MEANS = "every access is under src/test, in the tests' own code, not the product's";

  private static void tableSection(StringBuilder out, List<ExportedRace> races) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"FIELD", "VERDICT", "STATE", "WHERE", "FAILURE"});
    for (ExportedRace r : races) {
      rows.add(new String[] {r.race().id(), r.race().verdict(), state(r), r.accesses().isEmpty() ? "-"
          : r.accesses().get(0).location(), oneLine(r)});
    }
    out.append(Columns.render(rows));
    for (ExportedRace r : races) {
      out.append('\n').append(r.race().id()).append(" — ").append(r.race().verdict()).append(", ").append(state(r))
          .append('\n');
      if (r.summary() != null) out.append("  ").append(r.summary()).append('\n');
      if (r.fixed() != null) out.append("  fixed by run #").append(r.fixed().runId())
          .append(r.fixed().commit() == null ? "" : " at commit " + r.fixed().commit()).append(": ")
          .append(r.fixed().note()).append('\n');
      if (r.recheck() != null) out.append("  ").append(r.recheck()).append('\n');
      if (r.testCode()) out.append("  test-code race: ").append(TEST_CODE_MEANS).append('\n');
      for (ExportedRace.Access a : r.accesses()) {
        out.append("  ").append(a.type().toLowerCase(Locale.ROOT)).append(' ').append(a.location())
            .append(a.thread().isBlank() ? "" : " (thread " + a.thread() + ")").append('\n');
      }
      String failure = r.failureHead(FAILURE_LINES);
      if (failure != null) {
        out.append("  first failure:\n").append(failure.lines().map(l -> "    " + l).collect(Collectors.joining("\n")))
            .append('\n');
      }
      r.fixAdvice().forEach(f -> out.append("  fix: ").append(f).append('\n'));
      if (r.race().mark() != null) {
        out.append("  trusted-benign (").append(r.race().mark().author()).append("): ").append(r.race().mark().note())
            .append('\n');
      }
      if (r.replayCommand() != null) out.append("  replay: ").append(r.replayCommand()).append('\n');
    }
  }

  /** The Markdown a CI job posts; {@code apart} as in {@link #table}. */
  static String markdown(List<ExportedRace> races, int unreadable, boolean apart) {
    StringBuilder out = new StringBuilder("## racetriage\n\n");
    if (races.isEmpty()) {
      out.append("No stored race matches.\n");
      return note(out, unreadable);
    }
    List<ExportedRace> product = apart ? races.stream().filter(r -> !r.testCode()).toList() : races;
    List<ExportedRace> tests = apart ? races.stream().filter(ExportedRace::testCode).toList() : List.of();
    long destructive = openDestructive(product);
    out.append(destructive == 0 ? "No open destructive race" : "**" + destructive + " open destructive race"
        + (destructive == 1 ? "" : "s") + "**");
    long inTests = openDestructive(tests);
    out.append(apart && !tests.isEmpty() ? " in the product's code" + (inTests == 0 ? "" : "; " + inTests
        + " in test code") : "").append(".\n\n");
    if (!product.isEmpty()) markdownSection(out, product);
    if (!tests.isEmpty()) {
      out.append("\n### ").append(TEST_CODE_HEADING).append(" (").append(tests.size()).append(")\n\n")
          .append("Every access of these races is under `src/test`: the tests' own code, not the product's.\n\n");
      markdownSection(out, tests);
    }
    return note(out, unreadable);
  }

  private static long openDestructive(List<ExportedRace> races) {
    return races.stream().filter(r -> r.race().verdict().equals("destructive") && r.race().mark() == null
        && r.fixed() == null).count();
  }

  private static void markdownSection(StringBuilder out, List<ExportedRace> races) {
    out.append("| field | verdict | state | where | failure |\n|---|---|---|---|---|\n");
    for (ExportedRace r : races) {
      out.append("| `").append(cell(r.race().id())).append("` | ").append(r.race().verdict()).append(" | ")
          .append(state(r)).append(" | ")
          .append(r.accesses().isEmpty() ? "" : "`" + cell(r.accesses().get(0).location()) + "`").append(" | ")
          .append(cell(oneLine(r))).append(" |\n");
    }
    for (ExportedRace r : races) {
      out.append("\n<details><summary><code>").append(html(r.race().id())).append("</code>: ")
          .append(html(r.race().verdict())).append(", ").append(html(state(r))).append("</summary>\n\n");
      if (r.summary() != null) out.append(escapeMd(r.summary())).append("\n\n");
      if (r.fixed() != null) out.append("Fixed by run #").append(r.fixed().runId())
          .append(r.fixed().commit() == null ? "" : " at commit `" + r.fixed().commit() + "`").append(".\n\n");
      if (r.recheck() != null) out.append(escapeMd(r.recheck())).append("\n\n");
      if (r.testCode()) out.append("Test-code race: every access is under `src/test`.\n\n");
      for (ExportedRace.Access a : r.accesses()) {
        out.append("- ").append(a.type().toLowerCase(Locale.ROOT)).append(" at `").append(a.location()).append("`\n");
      }
      String failure = r.failureHead(FAILURE_LINES);
      if (failure != null) out.append("\nFirst failure:\n\n```\n").append(failure.replace("```", "'''")).append("\n```\n");
      r.fixAdvice().forEach(f -> out.append("\n**Fix:** ").append(escapeMd(f)).append('\n'));
      if (r.replayCommand() != null) {
        out.append("\nReplay:\n\n```sh\n").append(r.replayCommand()).append("\n```\n");
      }
      out.append("\n</details>\n");
    }
  }

  /** The state as a word, with "fixed" taking the place of the mark for a race that is gone. */
  static String state(ExportedRace r) {
    return r.race().state() + (r.testCode() ? " (test code)" : "");
  }

  /** The failure's first line (the exception and its message), or the summary when nothing failed. */
  static String oneLine(ExportedRace r) {
    String head = r.failureHead(1);
    String line = head != null ? head : r.summary() == null ? "-" : r.summary();
    return line.length() > 120 ? line.substring(0, 117) + "..." : line;
  }

  private static String note(StringBuilder out, int unreadable) {
    if (unreadable > 0) {
      out.append('\n').append(unreadable).append(" stored race(s) could not be read and are left out.\n");
    }
    return out.toString();
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }

  private static String html(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static String escapeMd(String text) {
    return html(text).replace("*", "\\*").replace("_", "\\_");
  }
}
