package dev.racetriage.lsp.hover;

import dev.racetriage.lsp.findings.AccessSite;
import dev.racetriage.lsp.findings.FieldFinding;
import dev.racetriage.lsp.findings.HeuristicRow;
import dev.racetriage.lsp.findings.VerdictEvidence;
import java.util.List;
import java.util.Locale;

/** The hover text of a finding: verdict, per-heuristic trial table, first failure, replay command, accesses. */
final class FindingMarkdown {
  /** A hover is a tooltip: the top of the trace says where it failed; the dashboard has the rest. */
  static final int MAX_TRACE_LINES = 25;

  private FindingMarkdown() {}

  static String firstLines(String text, int max) {
    String[] lines = text.strip().split("\\R");
    if (lines.length <= max) {
      return text.strip();
    }
    return String.join("\n", java.util.Arrays.copyOf(lines, max)) + "\n\t… " + (lines.length - max) + " more lines";
  }

  static String render(FieldFinding finding) {
    StringBuilder md = new StringBuilder();
    md.append("**racetriage: ").append(finding.status().id()).append("** — `").append(finding.fieldKey())
        .append("`\n\n");
    if (!finding.summary().isBlank()) {
      md.append(escape(finding.summary())).append("\n\n");
    }
    if (!finding.status().isVerdict()) {
      md.append(String.format(Locale.ROOT, "Static candidate, confidence %.0f%%", finding.confidence() * 100))
          .append(finding.code().equals("candidate") ? "" : " (" + finding.code() + ")").append(".\n\n");
    }
    VerdictEvidence evidence = finding.evidence();
    // a static candidate's reasons are its explanation; a verdict's are its evidence facts, after the table
    if (!finding.status().isVerdict()) {
      reasons(md, finding.reasons());
    }
    if (evidence.testCode()) {
      md.append(TEST_CODE).append("\n\n");
    }
    evidence.markNote().ifPresent(note -> md.append("Trusted-benign: ").append(escape(note)).append("\n\n"));
    if (!evidence.rows().isEmpty()) {
      md.append("| heuristic | runs | failures | failure rate | stale reads | stale-read rate | median ms |\n"
          + "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
      for (HeuristicRow row : evidence.rows()) {
        md.append(String.format(Locale.ROOT, "| %s | %d | %d | %.0f%% | %d | %.1f%% | %.0f |%n",
            escape(row.heuristic()), row.runs(), row.failures(), 100 * row.failureRate(), row.staleReads(),
            100 * row.staleReadRate(), row.medianMillis()));
      }
      md.append('\n').append(HEURISTICS).append("\n\n");
    }
    evidence.firstFailure().ifPresent(failure ->
        md.append("First failure:\n\n```\n").append(firstLines(failure, MAX_TRACE_LINES).replace("```", "'''"))
            .append("\n```\n\n"));
    evidence.replayCommand().ifPresent(command ->
        md.append("Replay:\n\n```sh\n").append(command.replace("```", "'''")).append("\n```\n\n"));
    if (!finding.accesses().isEmpty()) {
      md.append("Accesses:\n");
      for (AccessSite access : finding.accesses()) {
        Object file = access.file() == null ? "?" : access.file().getFileName();
        md.append("- ").append(file).append(':').append(access.line()).append(" — ")
            .append(escape(access.description())).append('\n');
      }
      md.append('\n');
    }
    if (finding.status().isVerdict() && !finding.reasons().isEmpty()) {
      md.append("Details:\n");
      reasons(md, finding.reasons().stream().sorted().toList());
    }
    return md.toString().trim();
  }

  /** What a test-code race is, where the hover says a race is one. */
  static final String TEST_CODE = "_Test-code race_: every access is under `src/test`, in the tests' own code, not "
      + "the product's.";

  /** The heuristics in one line each: what the trial table's rows mean. */
  static final String HEURISTICS = "_sc_: no stale value (the control); _oldest_: the oldest value the write buffer "
      + "holds; _oldest-but-different_: the oldest one that differs from the latest; _random_, "
      + "_random-but-different_: a seeded random choice (different from the latest).";

  private static void reasons(StringBuilder md, List<String> reasons) {
    for (String reason : reasons) {
      md.append("- ").append(escape(reason)).append('\n');
    }
    if (!reasons.isEmpty()) {
      md.append('\n');
    }
  }

  /** Test output and reasons are text, not markdown: neutralise the characters that would format or link. */
  static String escape(String text) {
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")
        .replace("<", "&lt;").replace("[", "\\[").replace("`", "\\`");
  }
}
