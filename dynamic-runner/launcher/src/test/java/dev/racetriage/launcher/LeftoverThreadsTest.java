package dev.racetriage.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Timer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Real threads: which leftovers of a run make it unrepeatable in its JVM. */
class LeftoverThreadsTest {

  private static ThreadFactory named(String name) {
    return r -> new Thread(r, name);
  }

  @Test
  void idleWorkersOfPoolsNobodyShutDownDoNotCountAsRunning() throws Exception {
    Set<Thread> atStart = new HashSet<>(Thread.getAllStackTraces().keySet());
    ExecutorService fixed = Executors.newFixedThreadPool(1, named("fixed-worker"));
    ExecutorService scheduled = Executors.newScheduledThreadPool(1, named("scheduled-worker"));
    ForkJoinPool forkJoin = new ForkJoinPool(1, pool -> {
      var t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
      t.setName("fj-worker");
      t.setDaemon(false);
      return t;
    }, null, false);
    Timer timer = new Timer("timer-thread", false);
    try {
      fixed.submit(() -> 1).get();
      scheduled.submit(() -> 2).get();
      forkJoin.submit(() -> 3).get();
      CountDownLatch ran = new CountDownLatch(1);
      timer.schedule(new java.util.TimerTask() { @Override public void run() { ran.countDown(); } }, 0);
      ran.await();

      LeftoverThreads.Left left = LeftoverThreads.after(atStart);

      assertEquals(List.of(), left.running());
      assertTrue(left.idle().containsAll(List.of("fixed-worker", "scheduled-worker", "timer-thread")), left::toString);
      // a ForkJoinPool worker may have ended already (it times out when idle); if alive it is idle
      assertTrue(left.idle().size() >= 3, left::toString);
    } finally {
      fixed.shutdownNow();
      scheduled.shutdownNow();
      forkJoin.shutdownNow();
      timer.cancel();
      fixed.awaitTermination(10, TimeUnit.SECONDS);
      scheduled.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aSleeperASpinnerAndAPoolWorkerStillBusyAreRunning() throws Exception {
    Set<Thread> atStart = new HashSet<>(Thread.getAllStackTraces().keySet());
    AtomicBoolean stop = new AtomicBoolean();
    Thread sleeper = new Thread(() -> {
      try {
        Thread.sleep(600_000);
      } catch (InterruptedException e) {
        // ended by the test
      }
    }, "sleeper");
    Thread spinner = new Thread(() -> {
      while (!stop.get()) Thread.onSpinWait();
    }, "spinner");
    ExecutorService busy = Executors.newFixedThreadPool(1, named("busy-worker"));
    CountDownLatch release = new CountDownLatch(1);
    sleeper.start();
    spinner.start();
    busy.submit(() -> {
      release.await();
      return null;
    });
    try {
      LeftoverThreads.Left left = LeftoverThreads.after(atStart);

      assertEquals(Set.of("sleeper", "spinner", "busy-worker"), new HashSet<>(left.running()), left::toString);
      assertEquals(List.of(), left.idle());
    } finally {
      stop.set(true);
      sleeper.interrupt();
      release.countDown();
      busy.shutdown();
      sleeper.join();
      spinner.join();
      busy.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aThreadThatEndsWithinTheGraceIsNotLeftOver() throws Exception {
    Set<Thread> atStart = new HashSet<>(Thread.getAllStackTraces().keySet());
    Thread ending = new Thread(() -> {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        // ended by the test
      }
    }, "ending");
    ending.start();

    LeftoverThreads.Left left = LeftoverThreads.after(atStart);

    assertEquals(List.of(), left.running());
    assertEquals(List.of(), left.idle());
  }
}
