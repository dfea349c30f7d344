package dev.racetriage.cli;

import dev.racetriage.runner.detect.DetectedRace;
import dev.racetriage.runner.report.SourceLocator;
import dev.racetriage.runner.triage.RaceFinding;
import dev.racetriage.runner.triage.TriageResult;
import dev.racetriage.runner.triage.TriageStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The terminal table of {@code racetriage triage}: field, verdict, best heuristic and its failure rate, where the race
 * was found (file:line) and the tests; then a line per race with its reason and the failure's first line.
 */
final class TriageTable {
  private TriageTable() {}

  static String render(TriageResult result, SourceLocator sources) {
    StringBuilder out = new StringBuilder();
    if (result.races().isEmpty()) {
      out.append("No races: the tests ran under the agent and no two threads accessed a field without happens-before.\n");
    } else {
      List<String[]> rows = new ArrayList<>();
      rows.add(new String[] {"FIELD", "VERDICT", "BEST HEURISTIC", "FAILURE RATE", "WHERE", "TESTS"});
      for (RaceFinding f : result.races()) {
        String verdict = f.verdict().label() + (f.trustedBenign() ? " (trusted-benign)" : "")
            + (sources.inTestCode(f.race()) ? " (test code)" : "")
            + (f.predicted() ? " (predicted)" : "");
        String rate = f.bestHeuristic() == null ? "-" : String.format(Locale.ROOT, "%.0f%%", 100 * f.bestFailureRate());
        rows.add(new String[] {f.race().fieldKey(), verdict, f.bestHeuristic() == null ? "-" : f.bestHeuristic(), rate,
            where(f.race().current(), sources), tests(f.race().tests())});
      }
      out.append(Columns.render(rows));
      out.append('\n');
      for (RaceFinding f : result.races()) {
        out.append(f.race().fieldKey()).append(": ").append(f.reason()).append('\n');
        if (f.failureLine() != null) {
          out.append("  fails with ").append(f.failureLine()).append('\n');
        }
        if (f.predicted()) {
          out.append("  predicted (--predict): no observed run raced it; ").append(f.race().witness()).append('\n');
        }
      }
      if (result.races().stream().anyMatch(f -> sources.inTestCode(f.race()))) {
        out.append("\n(test code): every access of the race is under src/test, in the tests' own code, not the "
            + "product's.");
      }
      out.append("\nFAILURE RATE: runs that failed / runs, under the best heuristic. 'racetriage report' shows every "
          + "access, the failure and how to replay it.\n");
    }
    TriageStats s = result.stats();
    out.append(String.format(Locale.ROOT, "%n%d race(s), %d test(s); build %.1f s, baseline %.1f s, detection %.1f s "
            + "(%d run(s), %d race(s) found only by a repeat), %d trial(s) in %d JVM(s) %.1f s, total %.1f s%n",
        result.races().size(), s.tests(), s.buildMillis() / 1000.0, s.baselineMillis() / 1000.0,
        s.detectMillis() / 1000.0, s.detectRuns(), s.lateRaces().size(), s.trials(), s.trialJvms(),
        s.trialMillis() / 1000.0, s.elapsedMillis() / 1000.0));
    if (!s.lateRaces().isEmpty()) {
      out.append("Found only by a repeated detection run: ").append(String.join(", ", s.lateRaces())).append('\n');
    }
    if (!s.untrackedArrays().isEmpty()) {
      out.append("Arrays too long to check element by element (races on their elements cannot be seen):\n");
      s.untrackedArrays().forEach(a -> out.append("  ").append(a.describe()).append('\n'));
    }
    if (s.predictionStoppedAfterEvents() > 0) {
      out.append("Prediction stopped after ").append(s.predictionStoppedAfterEvents()).append(" events (its budget): "
          + "races only another schedule would expose were predicted in the first part of the run only; --predict "
          + "covers all of it\n");
    }
    if (!s.uninstrumentedClasses().isEmpty()) {
      out.append("Not instrumented (races in these classes cannot be seen):\n");
      s.uninstrumentedClasses().forEach(c -> out.append("  ").append(c.className()).append(": ").append(c.reason()).append('\n'));
    }
    return out.toString();
  }

  private static String tests(List<String> tests) {
    if (tests.isEmpty()) return "-";
    String first = tests.get(0);
    int hash = first.lastIndexOf('#');
    int dot = first.lastIndexOf('.', hash < 0 ? first.length() : hash);
    String shortName = first.substring(dot + 1);
    return tests.size() == 1 ? shortName : shortName + " +" + (tests.size() - 1);
  }

  /** {@code path:line} of the access that found the race (the file as the class names it if not in the project). */
  static String where(DetectedRace.Access access, SourceLocator sources) {
    if (access == null) return "-";
    String file = sources.locate(access.className(), access.file()).orElse(access.file() == null ? "?" : access.file());
    return access.line() > 0 ? file + ":" + access.line() : file;
  }
}
