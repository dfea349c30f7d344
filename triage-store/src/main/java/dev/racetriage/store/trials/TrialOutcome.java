package dev.racetriage.store.trials;

/** How a trial ended. */
public enum TrialOutcome {
  PASS,
  FAIL,
  TIMEOUT
}
