package dev.racetriage.runner.trial;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One run of one test with one field jumbled under one heuristic and seed. {@code testId} is the JUnit unique id that
 * selects the test; {@code testName} is {@code pkg.Class#method} as the store names tests; {@code indices} are the
 * array elements jumbled for an array key (empty: the agent's default 0 and 1; see {@link JumbledIndices}).
 */
public record TrialSpec(String fieldKey, String testId, String testName, String heuristic, long seed,
    List<Integer> indices) {

  public TrialSpec {
    indices = List.copyOf(indices);
  }

  /** A trial with the agent's default sampled indices. */
  public TrialSpec(String fieldKey, String testId, String testName, String heuristic, long seed) {
    this(fieldKey, testId, testName, heuristic, seed, List.of());
  }

  /**
   * The agent argument for this trial, writing its report to {@code out}. The per-trial JVM and the trial server
   * both start their agent with it, and a replay command repeats it, sampled indices included.
   */
  public String agentOptions(String out) {
    String sampled = indices.isEmpty() ? ""
        : ";indices=" + indices.stream().map(String::valueOf).collect(Collectors.joining(","));
    return "mode=jumble;field=" + fieldKey + ";heuristic=" + heuristic + ";seed=" + seed + sampled + ";out=" + out;
  }
}
