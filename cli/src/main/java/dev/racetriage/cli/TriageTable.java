package dev.racetriage.cli;

import dev.racetriage.runner.triage.RaceFinding;
import dev.racetriage.runner.triage.TriageResult;
import dev.racetriage.runner.triage.TriageStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The terminal table of {@code racetriage triage}: field, verdict, best heuristic and its observation rate, tests. */
final class TriageTable {
  private TriageTable() {}

  static String render(TriageResult result) {
    StringBuilder out = new StringBuilder();
    if (result.races().isEmpty()) {
      out.append("No races: the tests ran under the agent and no two threads accessed a field without happens-before.\n");
    } else {
      List<String[]> rows = new ArrayList<>();
      rows.add(new String[] {"FIELD", "VERDICT", "BEST HEURISTIC", "OBSERVED", "TESTS"});
      for (RaceFinding f : result.races()) {
        String verdict = f.verdict().label() + (f.trustedBenign() ? " (trusted-benign)" : "");
        String rate = f.bestHeuristic() == null ? "-" : String.format(Locale.ROOT, "%.0f%%", 100 * f.bestObservationRate());
        rows.add(new String[] {f.race().fieldKey(), verdict, f.bestHeuristic() == null ? "-" : f.bestHeuristic(), rate,
            tests(f.race().tests())});
      }
      int[] widths = new int[rows.get(0).length];
      for (String[] row : rows) {
        for (int i = 0; i < row.length; i++) widths[i] = Math.max(widths[i], row[i].length());
      }
      for (String[] row : rows) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < row.length; i++) {
          line.append(i == row.length - 1 ? row[i] : pad(row[i], widths[i] + 2));
        }
        out.append(line.toString().stripTrailing()).append('\n');
      }
      out.append('\n');
      for (RaceFinding f : result.races()) {
        out.append(f.race().fieldKey()).append(": ").append(f.reason()).append('\n');
      }
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

  private static String pad(String s, int width) {
    return s.length() >= width ? s + " " : s + " ".repeat(width - s.length());
  }
}
