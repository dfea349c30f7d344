package dev.racetriage.runner.verdict;

import java.util.List;

/**
 * The runs of one test with one field jumbled under one heuristic. A failure counts as evidence against the race
 * only if that run was served at least one stale value ({@code explainedFailures}); a run that failed without any
 * stale read cannot blame the race ({@code unexplainedFailures}). {@code timeouts}: runs killed at their limit,
 * never failures. Under an adversarial heuristic they are among {@code runs} and their limit among the durations
 * (a slowdown at least that large: QoS evidence); under {@code sc} they are the environment's noise, run again, and
 * left out of {@code runs} and the durations. {@code pairs}: the confirmation pairs of an adversarial heuristic whose
 * runs looked slower ({@link PairedSlowdown}), each its control and its own duration; their runs are among the others.
 * {@code sharedRuns}: runs of other heuristics that served stale values and that this one would have made alike, which
 * its benign rule counts ({@link dev.racetriage.runner.trial.SharedRuns}); not among {@code runs}.
 */
public record HeuristicTrials(
    String heuristic,
    int runs,
    int explainedFailures,
    int unexplainedFailures,
    long reads,
    long staleReads,
    List<Long> durationsMillis,
    int timeouts,
    List<PairedRun> pairs,
    int sharedRuns) {

  public static final String SC = "sc";

  public HeuristicTrials {
    durationsMillis = List.copyOf(durationsMillis);
    pairs = List.copyOf(pairs);
  }

  /** Runs no other heuristic's runs count for. */
  public HeuristicTrials(String heuristic, int runs, int explainedFailures, int unexplainedFailures, long reads,
      long staleReads, List<Long> durationsMillis, int timeouts, List<PairedRun> pairs) {
    this(heuristic, runs, explainedFailures, unexplainedFailures, reads, staleReads, durationsMillis, timeouts, pairs,
        0);
  }


  /** Runs without confirmation pairs. */
  public HeuristicTrials(String heuristic, int runs, int explainedFailures, int unexplainedFailures, long reads,
      long staleReads, List<Long> durationsMillis, int timeouts) {
    this(heuristic, runs, explainedFailures, unexplainedFailures, reads, staleReads, durationsMillis, timeouts, List.of());
  }

  /** Runs without a timeout. */
  public HeuristicTrials(String heuristic, int runs, int explainedFailures, int unexplainedFailures, long reads,
      long staleReads, List<Long> durationsMillis) {
    this(heuristic, runs, explainedFailures, unexplainedFailures, reads, staleReads, durationsMillis, 0, List.of());
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
