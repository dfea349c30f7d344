package dev.racetriage.runner.trial;

import dev.racetriage.agent.options.JumbleOptions;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Which elements of a racy array a trial jumbles. The agent's adversarial memory buffers only a few sampled indices
 * per array (JUMBLE samples 0 and 1); a race at other elements — a sieve racing at its composite bases 4, 6, 8, … —
 * would serve no stale value and look unexercised. So a trial samples the indices the detector saw race, reads'
 * first (the agent lists WR indices before WW-only ones), at most {@link #MAX} of them: each jumbled array access
 * compares its index with every sampled one.
 */
public final class JumbledIndices {
  /** Indices sampled per trial at most. */
  public static final int MAX = 8;

  private JumbledIndices() {
  }

  /**
   * The indices to pass as the agent's {@code indices=} for a field: the first {@link #MAX} racing ones of an array
   * key ({@code pkg.Cls.slots[]}); empty — the agent's default 0 and 1 — for a field, or when the detection report
   * named none (an older agent).
   */
  public static List<Integer> choose(String fieldKey, List<Integer> racing) {
    if (!fieldKey.endsWith("[]") || racing.isEmpty()) {
      return List.of();
    }
    return List.copyOf(racing.subList(0, Math.min(MAX, racing.size())));
  }

  /**
   * The elements a trial of {@code fieldKey} jumbled, for a verdict's evidence ({@code "4,8,9"}, or {@code "0,1 (the
   * agent's default)"}): an array's "unexercised" or "benign" holds for those elements only. Null for a field.
   */
  public static String describe(String fieldKey, List<Integer> chosen) {
    if (!fieldKey.endsWith("[]")) {
      return null;
    }
    return chosen.isEmpty() ? join(JumbleOptions.DEFAULT_INDICES) + " (the agent's default)" : join(chosen);
  }

  private static String join(List<Integer> indices) {
    return indices.stream().map(String::valueOf).collect(Collectors.joining(","));
  }
}
