package dev.racetriage.runner.verdict;

import java.util.List;

/**
 * The runs of one test with one field jumbled under one heuristic. A failure counts as evidence against the race
 * only if that run was served at least one stale value ({@code explainedFailures}); a run that failed without any
 * stale read cannot blame the race ({@code unexplainedFailures}).
 */
public record HeuristicTrials(
    String heuristic,
    int runs,
    int explainedFailures,
    int unexplainedFailures,
    long reads,
    long staleReads,
    List<Long> durationsMillis) {

  public static final String SC = "sc";

  public HeuristicTrials {
    durationsMillis = List.copyOf(durationsMillis);
  }

  public int failures() {
    return explainedFailures + unexplainedFailures;
  }

  /** Share of runs that failed because of stale values: the paper's observation rate. */
  public double observationRate() {
    return runs == 0 ? 0 : (double) explainedFailures / runs;
  }

  public boolean isControl() {
    return SC.equals(heuristic);
  }
}
