package dev.racetriage.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The non-daemon threads a run left alive, split into the ones that can run into the next run and the idle workers
 * of a pool the test did not shut down. A test that leaves a thread running (a sleeper, a spinning poller) is not
 * repeatable in its JVM: its leftovers act during the next run. A worker parked in its pool waiting for a task that
 * will never come ({@code ThreadPoolExecutor.getTask}, {@code ForkJoinPool.awaitWork}, a {@code Timer}'s empty
 * queue) does nothing more: tests that create an executor per test and never shut it down are common, and they
 * stay repeatable.
 *
 * <p>Threads still busy right after the run get a short grace ({@link #GRACE_MILLIS}) to finish or park: a pool's
 * workers return to their queue a moment after the task that ended the test.
 */
final class LeftoverThreads {
  static final long GRACE_MILLIS = 300;
  private static final long POLL_MILLIS = 10;

  /** Where an idle pool worker waits: (class, method) of one of its frames. */
  private static final List<String[]> IDLE_WAITS = List.of(
      new String[] {"java.util.concurrent.ThreadPoolExecutor", "getTask"},
      new String[] {"java.util.concurrent.ForkJoinPool", "awaitWork"},
      new String[] {"java.util.TimerThread", "mainLoop"});

  /** The threads a run left: {@code running} can act in the next run, {@code idle} are parked pool workers. */
  record Left(List<String> running, List<String> idle) {}

  private LeftoverThreads() {}

  /** The non-daemon threads alive now that were not in {@code atStart}, after the grace for busy ones. */
  static Left after(Set<Thread> atStart) {
    long deadline = System.nanoTime() + GRACE_MILLIS * 1_000_000L;
    while (true) {
      Left left = now(atStart);
      if (left.running().isEmpty() || System.nanoTime() >= deadline) return left;
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return left;
      }
    }
  }

  private static Left now(Set<Thread> atStart) {
    List<String> running = new ArrayList<>();
    List<String> idle = new ArrayList<>();
    for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
      Thread t = e.getKey();
      if (t.isDaemon() || !t.isAlive() || atStart.contains(t) || t == Thread.currentThread()) continue;
      (isIdleWorker(t.getState(), e.getValue()) ? idle : running).add(t.getName());
    }
    return new Left(running, idle);
  }

  /** A thread parked (not sleeping, not spinning) inside one of the JDK's pools' wait-for-work methods. */
  static boolean isIdleWorker(Thread.State state, StackTraceElement[] stack) {
    if (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) return false;
    for (StackTraceElement frame : stack) {
      for (String[] wait : IDLE_WAITS) {
        if (wait[0].equals(frame.getClassName()) && wait[1].equals(frame.getMethodName())) return true;
      }
    }
    return false;
  }
}
