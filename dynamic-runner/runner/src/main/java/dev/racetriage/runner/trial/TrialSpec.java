package dev.racetriage.runner.trial;

/**
 * One run of one test with one field jumbled under one heuristic and seed. {@code testId} is the JUnit unique id that
 * selects the test; {@code testName} is {@code pkg.Class#method} as the store names tests.
 */
public record TrialSpec(String fieldKey, String testId, String testName, String heuristic, long seed) {

  /** The agent argument for this trial, writing its report to {@code out}. */
  public String agentOptions(String out) {
    return "mode=jumble;field=" + fieldKey + ";heuristic=" + heuristic + ";seed=" + seed + ";out=" + out;
  }
}
