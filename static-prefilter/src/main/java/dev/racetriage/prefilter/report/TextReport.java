package dev.racetriage.prefilter.report;

import dev.racetriage.prefilter.Analysis;
import dev.racetriage.prefilter.Candidate;
import dev.racetriage.prefilter.facts.Access;
import dev.racetriage.prefilter.facts.HeldLock;
import dev.racetriage.prefilter.facts.PatternHit;
import dev.racetriage.prefilter.rank.Reason;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Collectors;

/** One readable block per candidate: where, how sure, the patterns with their fixes, the reasons, the accesses. */
public final class TextReport {

  private TextReport() {}

  public static String render(Analysis analysis, Path baseDir) {
    StringBuilder out = new StringBuilder();
    for (Candidate c : analysis.candidates()) {
      out.append(c.field()).append("  (confidence ").append(String.format(Locale.ROOT, "%.2f", c.confidence()))
          .append(")\n");
      out.append("  declared at ").append(ReportPaths.relative(baseDir, c.file())).append(':').append(c.line())
          .append('\n');
      for (PatternHit hit : c.patterns()) {
        out.append("  pattern ").append(hit.pattern().id()).append(" at line ").append(hit.line()).append(": ")
            .append(hit.pattern().fix()).append('\n');
      }
      for (Reason reason : c.reasons()) {
        out.append("  - ").append(reason).append('\n');
      }
      out.append("  accesses:\n");
      for (Access a : c.accesses()) {
        out.append("    ").append(ReportPaths.relative(baseDir, a.file())).append(':').append(a.line()).append("  ")
            .append(a.kind().label()).append(" in ").append(a.methodLabel())
            .append(a.locks().isEmpty() ? " without lock"
                : " under " + a.locks().stream().map(HeldLock::toString).collect(Collectors.joining(", ")))
            .append(a.initialisation() ? " (initialisation)" : "").append('\n');
      }
      out.append('\n');
    }
    out.append(analysis.candidates().size()).append(" candidate").append(analysis.candidates().size() == 1 ? "" : "s")
        .append(" in ").append(analysis.files()).append(" files, ").append(analysis.millis()).append(" ms");
    if (!analysis.classpath().status().isComplete()) {
      out.append("; no classpath (").append(analysis.classpath().detail()).append("): confidence lowered");
    }
    out.append('\n');
    for (String problem : analysis.problems()) {
      out.append("problem: ").append(problem).append('\n');
    }
    return out.toString();
  }
}
