package dev.racetriage.store.queue;

/**
 * Where a planned unit of trials is: waiting, leased to a worker, finished, given up on after repeated failures, or
 * skipped because another unit of the same race already decided it.
 */
public enum TrialItemState {
  PENDING,
  CLAIMED,
  DONE,
  FAILED,
  SKIPPED;

  /** Whether the item will not run again. */
  public boolean finished() {
    return this == DONE || this == FAILED || this == SKIPPED;
  }
}
