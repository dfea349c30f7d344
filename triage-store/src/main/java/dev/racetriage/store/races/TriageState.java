package dev.racetriage.store.races;

import java.util.Locale;

/**
 * What a race asks of the team, from its {@link Lifecycle} and its mark: {@code OPEN} and {@code REGRESSED} races need
 * a decision (a regression is an open race that had been fixed), {@code TRUSTED_BENIGN} ones were set aside with their
 * evidence kept, {@code FIXED} ones are no longer seen by the tests that exercised them. A fixed race counts as fixed
 * whether or not it was marked.
 */
public enum TriageState {
  /** Not marked, not fixed: the verdict is displayed. */
  OPEN,
  /** Fixed once and seen again; not marked. Open, and highlighted as a regression. */
  REGRESSED,
  /** Marked trusted-benign: hidden from diagnostics, evidence kept. */
  TRUSTED_BENIGN,
  /** No longer seen although the tests that exercised it ran and passed: out of counts, diagnostics and exports. */
  FIXED;

  /** {@code open}, {@code regressed}, {@code trusted-benign}, {@code fixed}: the word of the CLI, API and pages. */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The state a label names, or null if none does. */
  public static TriageState ofLabel(String label) {
    for (TriageState s : values()) {
      if (s.label().equals(label)) return s;
    }
    return null;
  }
}
