package dev.racetriage.store.races;

/** Whether the team has set a race aside. */
public enum TriageState {
  /** No trusted-benign mark: the verdict is displayed. */
  OPEN,
  /** Marked trusted-benign: hidden from diagnostics, evidence kept. */
  TRUSTED_BENIGN
}
