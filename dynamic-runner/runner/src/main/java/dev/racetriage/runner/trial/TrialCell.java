package dev.racetriage.runner.trial;

import java.util.List;

/**
 * The unit of early stopping: one test of one racy field under one heuristic, run again and again. {@code indices}
 * are the array elements jumbled for an array key (empty: the agent's default, see {@link JumbledIndices}).
 * {@code firstRun} numbers its runs from there (the fresh-JVM retry's runs get seeds of their own, {@link
 * FreshJvmRetry}).
 */
public record TrialCell(String fieldKey, String testId, String testName, String heuristic, List<Integer> indices,
                        int firstRun) {

  public TrialCell {
    indices = List.copyOf(indices);
  }

  public TrialCell(String fieldKey, String testId, String testName, String heuristic, List<Integer> indices) {
    this(fieldKey, testId, testName, heuristic, indices, 0);
  }

  /** The same cell with its runs numbered from {@code first}. */
  public TrialCell numberedFrom(int first) {
    return new TrialCell(fieldKey, testId, testName, heuristic, indices, first);
  }

  /** A cell with the agent's default sampled indices. */
  public TrialCell(String fieldKey, String testId, String testName, String heuristic) {
    this(fieldKey, testId, testName, heuristic, List.of());
  }

  /** The seed of the n-th run: fixed by the cell and the run number, so every trial can be replayed. */
  public long seed(int run) {
    long h = 1125899906842597L;
    for (String s : new String[] {fieldKey, testName, heuristic}) {
      for (int i = 0; i < s.length(); i++) h = 31 * h + s.charAt(i);
    }
    return h ^ (0x9E3779B97F4A7C15L * (run + 1));
  }

  TrialSpec spec(int run) {
    return new TrialSpec(fieldKey, testId, testName, heuristic, seed(firstRun + run), indices);
  }
}
