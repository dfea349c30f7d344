package dev.racetriage.examples;

/**
 * A racy busy-wait flag: a producer computes a result and raises a plain {@code done} flag; a consumer spins on the
 * flag and then reads the result. Nothing orders the two threads.
 *
 * <p>Racy fields: {@code done} (a stale false only prolongs the wait by a few spins: benign) and {@code result}
 * (destructive: the consumer can see the flag and still read the old result).
 */
public final class BusyWait {
  boolean done;
  long result;

  public void produce(int n) {
    long sum = 0;
    for (int i = 1; i <= n; i++) {
      sum += i;
    }
    result = sum;
    done = true;
  }

  /**
   * Spins until the flag is seen, then returns the result. {@code onSpinWait} (a memory barrier to the JIT, so the
   * read is not hoisted out of the loop) keeps a stale {@code false} cheap: a few more spins, no trip through the
   * scheduler.
   */
  public long awaitResult() {
    while (!done) {
      Thread.onSpinWait();
    }
    return result;
  }
}
