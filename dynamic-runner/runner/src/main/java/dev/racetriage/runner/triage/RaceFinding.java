package dev.racetriage.runner.triage;

import dev.racetriage.runner.detect.DetectedRace;
import dev.racetriage.store.verdicts.Verdict;
import java.util.List;

/**
 * A race and what racetriage concluded about it: its verdict with the one-line reason, the decisive heuristic, the
 * per-heuristic trial summary, and the team's trusted-benign mark (which changes the display, never the evidence).
 */
public record RaceFinding(
    DetectedRace race,
    Verdict verdict,
    String reason,
    String bestHeuristic,
    double bestObservationRate,
    List<TrialSummary> trials,
    String trustedBenignNote) {

  public RaceFinding {
    trials = List.copyOf(trials);
  }

  public RaceFinding withTrustedBenign(String note) {
    return new RaceFinding(race, verdict, reason, bestHeuristic, bestObservationRate, trials, note);
  }

  public boolean trustedBenign() {
    return trustedBenignNote != null;
  }

  /** One heuristic's runs for this race, as the report shows them. */
  public record TrialSummary(String heuristic, int runs, int failures, long staleReads, double medianMillis) {}
}
