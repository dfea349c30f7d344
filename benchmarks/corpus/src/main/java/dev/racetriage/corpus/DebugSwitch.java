package dev.racetriage.corpus;

import java.util.ArrayList;
import java.util.List;

/**
 * A racy debug flag (JUMBLE §6, montecarlo's {@code Universal.UNIVERSAL_DEBUG}): an operator thread switches verbose
 * tracing on and off while workers compute; a worker checks the flag to decide whether to record a trace line in its
 * own list. A stale flag only adds or drops trace lines; the results never read it.
 *
 * <p>Racy field: {@code verbose} — benign.
 */
public final class DebugSwitch {
  static boolean verbose;

  private DebugSwitch() {}

  /** The operator: toggles tracing {@code times} times, ending with it off. */
  public static void toggle(int times) {
    for (int i = 0; i < times; i++) {
      verbose = true;
      Thread.yield();
      verbose = false;
    }
  }

  /** A worker: the sum of squares below {@code n}, tracing every 100th term while verbose. */
  public static long sumOfSquares(int n, List<String> trace) {
    long sum = 0;
    for (int i = 0; i < n; i++) {
      sum += (long) i * i;
      if (i % 100 == 0 && verbose) {
        trace.add("term " + i + " sum " + sum);
      }
    }
    return sum;
  }

  /** A fresh trace list for one worker (not shared). */
  public static List<String> newTrace() {
    return new ArrayList<>();
  }

  /** Back to the initial state; the test calls it before starting threads (see {@link Point#forget()}). */
  static void reset() {
    verbose = false;
  }
}
