package dev.racetriage.agent.runtime;

import java.util.concurrent.Semaphore;
import java.util.function.IntConsumer;
import java.util.function.IntUnaryOperator;

/**
 * The property tests' way of running a random trace through the hooks on real threads: {@code threads} threads,
 * forked through {@link Hooks#threadStarting} before the first step, take turns — step i runs on thread
 * {@code threadOf(i)}, alone, and the next step starts only after it (the semaphores that hand the turn over are not
 * hooked, so they order nothing the agent sees) — then the threads are joined. A step that throws ends the trace and
 * the run throws it.
 */
final class TakingTurns {
  private TakingTurns() {
  }

  static void run(int threads, int steps, IntUnaryOperator threadOf, IntConsumer step) throws InterruptedException {
    Semaphore[] go = new Semaphore[threads];
    Semaphore done = new Semaphore(0);
    int[] current = {-1};
    Throwable[] failed = new Throwable[1];
    Thread[] workers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      go[t] = new Semaphore(0);
      int self = t;
      workers[t] = new Thread(() -> {
        for (;;) {
          go[self].acquireUninterruptibly();
          int i = current[0];
          if (i < 0) {
            return;
          }
          try {
            step.accept(i);
          } catch (Throwable e) {
            failed[0] = e; // read by the test's thread after done: the semaphore orders it
          } finally {
            done.release();
          }
        }
      }, "t" + t);
      Hooks.threadStarting(workers[t]);
      workers[t].start();
    }
    int failedAt = -1;
    for (int i = 0; i < steps && failedAt < 0; i++) {
      current[0] = i;
      go[threadOf.applyAsInt(i)].release();
      done.acquireUninterruptibly();
      failedAt = failed[0] != null ? i : -1;
    }
    current[0] = -1;
    for (int t = 0; t < threads; t++) {
      go[t].release();
      workers[t].join();
    }
    if (failedAt >= 0) {
      throw new AssertionError("step " + failedAt + " threw", failed[0]);
    }
  }
}
