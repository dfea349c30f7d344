package dev.racetriage.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ThreadShadowTest {

  /**
   * Starts n threads made by {@code newThread} that look their shadow up 10,000 times each, all at once, and joins
   * them; returns, per thread, the distinct shadows it got in a row (one entry if it always got the same).
   */
  private static List<List<ThreadShadow>> lookUpConcurrently(int n, Function<Runnable, Thread> newThread)
      throws InterruptedException {
    CyclicBarrier barrier = new CyclicBarrier(n);
    List<Thread> threads = new ArrayList<>();
    List<List<ThreadShadow>> seen = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<ThreadShadow> mine = new ArrayList<>();
      seen.add(mine);
      threads.add(newThread.apply(() -> {
        try {
          barrier.await();
        } catch (Exception e) {
          throw new AssertionError(e);
        }
        for (int k = 0; k < 10_000; k++) {
          ThreadShadow s = ThreadShadow.current();
          if (mine.isEmpty() || mine.get(mine.size() - 1) != s) {
            mine.add(s);
          }
        }
      }));
    }
    for (Thread t : threads) {
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    return seen;
  }

  private static void assertOneOwnShadowEach(List<List<ThreadShadow>> seen) {
    for (int i = 0; i < seen.size(); i++) {
      assertEquals(1, seen.get(i).size(), "thread " + i + " saw one shadow, always the same");
      assertNotSame(ThreadShadow.current(), seen.get(i).get(0), "thread " + i + " and the test's thread");
      for (int j = 0; j < i; j++) {
        assertNotSame(seen.get(i).get(0), seen.get(j).get(0), "threads " + i + " and " + j);
      }
    }
  }

  @Test
  void everyThreadAlwaysGetsItsOwnShadow() throws InterruptedException {
    assertOneOwnShadowEach(lookUpConcurrently(6, Thread::new));
    assertSame(ThreadShadow.current(), ThreadShadow.current());
  }

  /** A thread class that breaks getId's contract (every instance the same id) must not share a shadow. */
  @Test
  void threadsWhoseGetIdIsOverriddenDoNotShareAShadow() throws InterruptedException {
    long testThreadsId = Thread.currentThread().getId();
    ThreadShadow.current(); // the test's thread (a plain Thread) now has its shadow in the id-indexed cache
    assertOneOwnShadowEach(lookUpConcurrently(4, body -> new Thread(body) {
      @Override
      public long getId() {
        return testThreadsId; // the test's own thread's id, which has its shadow cached under it
      }
    }));
  }
}
