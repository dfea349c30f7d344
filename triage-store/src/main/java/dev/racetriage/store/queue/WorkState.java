package dev.racetriage.store.queue;

/** The life of a work item: PENDING → CLAIMED → DONE or FAILED (CLAIMED with an expired lease is claimable). */
public enum WorkState {
  PENDING,
  CLAIMED,
  DONE,
  FAILED
}
