package dev.racetriage.store.trials;

import java.time.Duration;

/**
 * The trials of one race under one heuristic, aggregated: runs, failures, timeouts, reads and stale reads (their
 * ratio is the observation rate), and the mean and maximum duration. The hover and the trial matrix show this.
 */
public record HeuristicSummary(
    String heuristic,
    int runs,
    int failures,
    int timeouts,
    long reads,
    long staleReads,
    Duration meanDuration,
    Duration maxDuration) {

  /** The share of reads that returned a stale value (the stale-read rate); 0 when nothing was read. */
  public double observationRate() {
    return staleReadRate();
  }

  /** The share of reads of the field that returned a stale value; 0 when nothing was read. */
  public double staleReadRate() {
    return reads == 0 ? 0.0 : (double) staleReads / reads;
  }

  /** The share of runs that failed (failures ÷ runs; a timeout is not a failure); 0 without runs. */
  public double failureRate() {
    return runs == 0 ? 0.0 : (double) failures / runs;
  }
}
