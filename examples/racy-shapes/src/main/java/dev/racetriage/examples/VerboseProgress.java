package dev.racetriage.examples;

/**
 * A static flag raised by workers without synchronisation: a worker that meets a slow item turns on verbose progress
 * for everyone, and every worker checks the flag per item. A stale {@code false} only leaves out progress lines; the
 * work's result never depends on it.
 *
 * <p>Racy field: {@code verbose} (benign). The flag survives the run: once a run has set it, every later run in the
 * same JVM writes the value it already holds, so repeating the test in one JVM never serves a stale value — only a
 * fresh JVM per run exercises the race (racetriage's fresh-JVM retry).
 */
public final class VerboseProgress {
  static boolean verbose;

  private VerboseProgress() {}

  /** The sum of the items' magnitudes; a negative item is a slow one, which turns on verbose progress. */
  public static long process(int[] items, StringBuilder progress) {
    long sum = 0;
    for (int item : items) {
      if (item < 0) verbose = true;
      if (verbose) progress.append('.');
      sum += Math.abs(item);
    }
    return sum;
  }
}
