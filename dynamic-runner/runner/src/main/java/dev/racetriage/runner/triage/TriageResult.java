package dev.racetriage.runner.triage;

import dev.racetriage.prefilter.Candidate;
import dev.racetriage.store.verdicts.Verdict;
import java.util.List;

/**
 * Everything a triage run found, in the order the report shows it (most severe verdict first). {@code classified}
 * is false when adversarial trials were asked for but could not run (the agent has no jumble mode); {@code hungTests}
 * are the tests stopped at their limit (the others' results are kept).
 */
public record TriageResult(List<RaceFinding> races, List<Candidate> candidates, List<String> warnings,
    TriageStats stats, boolean classified, List<HungTest> hungTests) {
  public TriageResult {
    hungTests = List.copyOf(hungTests);
    races = List.copyOf(races);
    candidates = List.copyOf(candidates);
    warnings = List.copyOf(warnings);
  }

  /** True when some race is destructive and not marked trusted-benign: the command then exits 1. */
  public boolean hasDestructive() {
    return races.stream().anyMatch(r -> r.verdict() == Verdict.DESTRUCTIVE && !r.trustedBenign());
  }

  public TriageResult(List<RaceFinding> races, List<Candidate> candidates, List<String> warnings, TriageStats stats,
      boolean classified) {
    this(races, candidates, warnings, stats, classified, List.of());
  }
}
