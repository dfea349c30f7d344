package dev.racetriage.runner.triage;

import dev.racetriage.store.verdicts.Verdict;
import java.util.List;

/** Everything a triage run found, in the order the report shows it (most severe verdict first). */
public record TriageResult(List<RaceFinding> races, List<String> warnings, TriageStats stats) {
  public TriageResult {
    races = List.copyOf(races);
    warnings = List.copyOf(warnings);
  }

  /** True when some race is destructive and not marked trusted-benign: the command then exits 1. */
  public boolean hasDestructive() {
    return races.stream().anyMatch(r -> r.verdict() == Verdict.DESTRUCTIVE && !r.trustedBenign());
  }
}
