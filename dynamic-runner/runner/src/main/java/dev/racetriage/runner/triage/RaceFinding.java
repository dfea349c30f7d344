package dev.racetriage.runner.triage;

import dev.racetriage.runner.detect.DetectedRace;
import dev.racetriage.store.verdicts.Verdict;
import java.util.List;

/**
 * A race and what racetriage concluded about it: its verdict with the one-line reason, the decisive heuristic and its
 * failure rate (failed runs ÷ runs), the per-heuristic trial summary, the team's trusted-benign mark (which changes
 * the display, never the evidence) and the first failure's stack trace (null when nothing failed).
 */
public record RaceFinding(
    DetectedRace race,
    Verdict verdict,
    String reason,
    String bestHeuristic,
    double bestFailureRate,
    List<TrialSummary> trials,
    String trustedBenignNote,
    String firstFailure) {

  public RaceFinding {
    trials = List.copyOf(trials);
  }

  public RaceFinding withTrustedBenign(String note) {
    return new RaceFinding(race, verdict, reason, bestHeuristic, bestFailureRate, trials, note, firstFailure);
  }

  /** The first line of the first failure (the exception and its message), or null when nothing failed. */
  public String failureLine() {
    if (firstFailure == null || firstFailure.isBlank()) return null;
    return firstFailure.strip().lines().findFirst().orElse(null);
  }

  /**
   * Found only by prediction ({@code --predict}) and not exercised yet: no trial served a stale value for it (a trial
   * that did exercised it, so it is no longer a prediction).
   */
  public boolean predicted() {
    return race.predicted() && trials.stream().allMatch(t -> t.staleReads() == 0);
  }

  public boolean trustedBenign() {
    return trustedBenignNote != null;
  }

  /** One heuristic's runs for this race, as the report shows them. */
  public record TrialSummary(String heuristic, int runs, int failures, long staleReads, double medianMillis) {}
}
