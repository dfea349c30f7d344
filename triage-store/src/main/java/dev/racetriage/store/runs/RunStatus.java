package dev.racetriage.store.runs;

/** Where a run stands. */
public enum RunStatus {
  RUNNING,
  SUCCEEDED,
  FAILED,
  CANCELLED,
  /**
   * The run's process died (killed, crashed, machine rebooted) before it could finish: set when the store is next
   * opened, by any process, from the run's owner and heartbeat. Its trials stay and a re-run may reuse them.
   */
  ABANDONED
}
