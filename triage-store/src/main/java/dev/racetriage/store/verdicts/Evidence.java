package dev.racetriage.store.verdicts;

import java.util.Map;
import java.util.TreeMap;

/**
 * Why a verdict was given, as the classifier states it: a one-line {@code summary} ("3/20 runs failed under oldest,
 * 0/20 under sc"), the command line that replays the decisive trial, the first failure's stack trace, and named
 * figures (observation rate, duration ratio, p-value...) kept as text so the store need not know every metric.
 * The per-trial detail lives in the trials themselves.
 */
public record Evidence(String summary, String replayCommand, String firstFailure, Map<String, String> facts) {
  public Evidence {
    summary = summary == null ? "" : summary;
    facts = facts == null ? Map.of() : Map.copyOf(new TreeMap<>(facts));
  }

  public static Evidence of(String summary) {
    return new Evidence(summary, null, null, Map.of());
  }
}
