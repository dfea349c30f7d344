package dev.racetriage.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

class ThreadShadowTest {

  /** Each thread's shadows, looked up many times while every other thread looks up its own. */
  private static List<List<ThreadShadow>> lookUpConcurrently(List<Thread> threads, List<List<ThreadShadow>> seen)
      throws InterruptedException {
    for (Thread t : threads) {
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    return seen;
  }

  private static Runnable lookUps(CyclicBarrier barrier, List<ThreadShadow> into) {
    return () -> {
      try {
        barrier.await();
      } catch (Exception e) {
        throw new AssertionError(e);
      }
      for (int i = 0; i < 10_000; i++) {
        ThreadShadow s = ThreadShadow.current();
        if (into.isEmpty() || into.get(into.size() - 1) != s) {
          into.add(s);
        }
      }
    };
  }

  @Test
  void everyThreadAlwaysGetsItsOwnShadow() throws InterruptedException {
    int n = 6;
    CyclicBarrier barrier = new CyclicBarrier(n);
    List<Thread> threads = new ArrayList<>();
    List<List<ThreadShadow>> seen = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<ThreadShadow> mine = new ArrayList<>();
      seen.add(mine);
      threads.add(new Thread(lookUps(barrier, mine)));
    }
    lookUpConcurrently(threads, seen);
    for (int i = 0; i < n; i++) {
      assertEquals(1, seen.get(i).size(), "thread " + i + " saw one shadow, always the same");
      for (int j = 0; j < i; j++) {
        assertNotSame(seen.get(i).get(0), seen.get(j).get(0), "threads " + i + " and " + j);
      }
    }
    assertSame(ThreadShadow.current(), ThreadShadow.current());
  }

  /** A thread class that breaks getId's contract (every instance the same id) must not share a shadow. */
  @Test
  void threadsWhoseGetIdIsOverriddenDoNotShareAShadow() throws InterruptedException {
    int n = 4;
    CyclicBarrier barrier = new CyclicBarrier(n);
    List<Thread> threads = new ArrayList<>();
    List<List<ThreadShadow>> seen = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<ThreadShadow> mine = new ArrayList<>();
      seen.add(mine);
      threads.add(new Thread(lookUps(barrier, mine)) {
        @Override
        @SuppressWarnings("deprecation")
        public long getId() {
          return 1; // the main thread's id, too
        }
      });
    }
    lookUpConcurrently(threads, seen);
    ThreadShadow main = ThreadShadow.current();
    for (int i = 0; i < n; i++) {
      assertEquals(1, seen.get(i).size(), "thread " + i);
      assertNotSame(main, seen.get(i).get(0));
      for (int j = 0; j < i; j++) {
        assertNotSame(seen.get(i).get(0), seen.get(j).get(0), "threads " + i + " and " + j);
      }
    }
  }
}
