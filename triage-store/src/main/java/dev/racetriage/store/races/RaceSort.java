package dev.racetriage.store.races;

/** Orders for the race list; ties are broken by field key. */
public enum RaceSort {
  /** Most severe verdict first (destructive, qos, flaky, unexercised, benign, pending). */
  SEVERITY,
  FIELD,
  LAST_SEEN,
  TRIALS
}
