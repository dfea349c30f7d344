package dev.racetriage.agent.hb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Joined threads' ids handed out again (jumble mode's constant cost per repeated run): only to a thread whose creator
 * is ordered after every access of the joined one, with a component above every value the old one had — so the
 * recycled id adds no order that the clocks did not already have.
 */
class ThreadIdRecyclingTest {
  private final HappensBefore hb = new HappensBefore();

  /** main starts a worker, the worker releases a lock an observer acquires, main joins the worker. */
  private ThreadState runAndJoin(ThreadState main, String name, ThreadState observer, SyncClock lock) {
    ThreadState w = hb.newThread(name, main);
    hb.fork(main, w);
    w.clock().tick(w.tid()); // some accesses
    if (observer != null) {
      hb.release(w, lock);
      hb.acquire(observer, lock);
    }
    hb.join(main, w);
    return w;
  }

  @Test
  void offByDefaultEveryThreadGetsAnIdOfItsOwn() {
    ThreadState main = hb.newThread("main");
    ThreadState first = runAndJoin(main, "w1", null, null);
    ThreadState second = runAndJoin(main, "w2", null, null);
    assertNotEquals(first.tid(), second.tid());
    assertEquals(3, hb.threadCount());
  }

  @Test
  void aJoinedThreadsIdGoesToTheNextThreadItsJoinerStartsAboveEveryOldValue() {
    hb.recycleJoinedThreads();
    ThreadState main = hb.newThread("main");
    ThreadState observer = hb.newThread("observer");
    SyncClock lock = new SyncClock();
    ThreadState first = runAndJoin(main, "w1", observer, lock);
    long firstLastEpoch = Epoch.of(first.tid(), main.clock().get(first.tid()));

    ThreadState second = hb.newThread("w2", main);
    hb.fork(main, second);
    assertEquals(first.tid(), second.tid(), "main joined w1: its id is free for w2");
    assertEquals(3, hb.threadCount());
    assertEquals("w2", hb.nameOf(second.tid()));
    assertTrue(second.clock().covers(firstLastEpoch), "w2 is after w1, as main's clock says (join, then fork)");
    assertFalse(observer.clock().covers(second.epoch()),
        "the observer synchronised with w1 only: it is not ordered before w2's accesses");
    assertFalse(main.clock().covers(second.epoch()), "nor is main, until it joins w2");

    hb.join(observer, first); // a late second join of the retired w1
    assertFalse(observer.clock().covers(second.epoch()), "a retired id's clock no longer ticks into the new owner's range");
  }

  @Test
  void aCreatorNotOrderedAfterTheJoinedThreadGetsAFreshId() {
    hb.recycleJoinedThreads();
    ThreadState main = hb.newThread("main");
    ThreadState other = hb.newThread("other");
    ThreadState first = runAndJoin(main, "w1", null, null);
    ThreadState fromOther = hb.newThread("x", other);
    assertNotEquals(first.tid(), fromOther.tid(), "other never joined w1: w1's accesses are not ordered before x");
    assertEquals(first.tid(), hb.newThread("y", main).tid(), "main still may");
    assertNotEquals(first.tid(), hb.newThread("z", main).tid(), "an id is handed out once");
  }

  @Test
  void aHundredRunsOfFourWorkersKeepTheClocksNarrow() {
    hb.recycleJoinedThreads();
    ThreadState main = hb.newThread("main");
    for (int run = 0; run < 100; run++) {
      ThreadState[] workers = new ThreadState[4];
      for (int i = 0; i < workers.length; i++) {
        workers[i] = hb.newThread("w" + i, main);
        hb.fork(main, workers[i]);
      }
      for (ThreadState w : workers) {
        w.clock().tick(w.tid());
        hb.join(main, w);
      }
    }
    assertEquals(5, hb.threadCount(), "main and four ids, not 401");
    assertEquals(5, main.clock().width());
    assertEquals(1, hb.liveThreads().length, "only main is alive");
  }
}
