package dev.racetriage.store.runs;

/** Where a run stands. */
public enum RunStatus {
  RUNNING,
  SUCCEEDED,
  FAILED,
  CANCELLED
}
