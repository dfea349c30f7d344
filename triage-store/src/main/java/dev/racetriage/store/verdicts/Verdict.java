package dev.racetriage.store.verdicts;

import java.util.Locale;

/**
 * The classification of a race. Declared in order of severity (the most urgent first), which is also the order the
 * race list sorts by.
 */
public enum Verdict {
  /** Stale values made a test fail under an adversarial heuristic and never under {@code sc}. */
  DESTRUCTIVE,
  /** No failures, but adversarial runs were significantly slower than {@code sc}. */
  QOS,
  /** The test also fails under {@code sc} or without the agent: no conclusion about the race. */
  FLAKY,
  /** No stale value was ever served, so the race was not really tested. */
  UNEXERCISED,
  /** Stale values were served; no failure, no slowdown. */
  BENIGN,
  /** Detected, not classified yet. */
  PENDING;

  /** The lower-case name used in reports, diagnostics codes and URLs ({@code destructive}, {@code qos}...). */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Verdict fromLabel(String label) {
    return valueOf(label.strip().toUpperCase(Locale.ROOT));
  }
}
