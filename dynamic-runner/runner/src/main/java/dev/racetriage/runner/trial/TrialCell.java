package dev.racetriage.runner.trial;

/** The unit of early stopping: one test of one racy field under one heuristic, run again and again. */
public record TrialCell(String fieldKey, String testId, String testName, String heuristic) {

  /** The seed of the n-th run: fixed by the cell and the run number, so every trial can be replayed. */
  public long seed(int run) {
    long h = 1125899906842597L;
    for (String s : new String[] {fieldKey, testName, heuristic}) {
      for (int i = 0; i < s.length(); i++) h = 31 * h + s.charAt(i);
    }
    return h ^ (0x9E3779B97F4A7C15L * (run + 1));
  }

  TrialSpec spec(int run) {
    return new TrialSpec(fieldKey, testId, testName, heuristic, seed(run));
  }
}
