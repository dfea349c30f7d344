package dev.racetriage.agent.hb;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HappensBeforeTest {
    private final HappensBefore hb = new HappensBefore();

    @Test
    void threadsGetDenseIdsAndStartAtIncOfBottom() {
        ThreadState a = hb.newThread("a");
        ThreadState b = hb.newThread("b");
        assertEquals(0, a.tid());
        assertEquals(1, b.tid());
        assertEquals(VectorClock.of(1), a.clock());
        assertEquals(VectorClock.of(0, 1), b.clock());
        assertEquals(2, hb.threadCount());
        assertEquals(Epoch.of(1, 1), b.epoch());
    }

    /**
     * JUMBLE Figure 7, the clock columns C0, C1 and Lm row by row. The figure starts mid-run with C0 = ⟨4,0⟩,
     * C1 = ⟨0,7⟩ and Lm = ⊥; the accesses do not change clocks (their write buffer is checked in agent.jumble).
     */
    @Test
    void figure7ClocksStepByStep() {
        ThreadState t0 = hb.newThread("Thread 0");
        ThreadState t1 = hb.newThread("Thread 1");
        t0.clock().set(0, 4);
        t1.clock().set(1, 7);
        SyncClock m = new SyncClock();

        hb.acquire(t0, m); // acq(0,m)
        assertEquals(VectorClock.of(4, 0), t0.clock());
        assertEquals(VectorClock.of(0, 7), t1.clock());
        assertEquals("⊥", m.toString());
        // wr(0,x,13), wr(0,x,42): no clock changes
        hb.release(t0, m); // rel(0,m)
        assertEquals(VectorClock.of(4, 0), m.snapshot());
        assertEquals(VectorClock.of(5, 0), t0.clock());
        assertEquals(VectorClock.of(0, 7), t1.clock());
        // rd(1,x,v): no clock change
        hb.acquire(t1, m); // acq(1,m)
        assertEquals(VectorClock.of(4, 7), t1.clock());
        assertEquals(VectorClock.of(5, 0), t0.clock());
        assertEquals(VectorClock.of(4, 0), m.snapshot());
    }

    @Test
    void forkOrdersParentBeforeChildAndTicksParent() {
        ThreadState parent = hb.newThread("main");
        parent.clock().set(0, 3);
        ThreadState child = hb.newThread("child");
        hb.fork(parent, child);
        assertEquals(VectorClock.of(3, 1), child.clock(), "C(u) := C(u) ⊔ C(t)");
        assertEquals(VectorClock.of(4), parent.clock(), "C(t) := inc_t(C(t))");
        assertTrue(child.clock().covers(Epoch.of(0, 3)), "the parent's pre-fork accesses happen before the child");
        assertFalse(child.clock().covers(parent.epoch()), "the parent's post-fork accesses do not");
    }

    @Test
    void joinOrdersJoinedBeforeJoinerAndTicksJoined() {
        ThreadState main = hb.newThread("main");
        ThreadState worker = hb.newThread("worker");
        worker.clock().set(1, 6);
        hb.join(main, worker);
        assertEquals(VectorClock.of(1, 6), main.clock(), "C(t) := C(t) ⊔ C(u)");
        assertEquals(VectorClock.of(0, 7), worker.clock(), "C(u) := inc_u(C(u))");
        hb.join(main, main);
        assertEquals(VectorClock.of(1, 6), main.clock(), "joining oneself changes nothing");
    }

    @Test
    void releaseJoinsSoVolatileReadersSeeEveryEarlierWriter() {
        ThreadState a = hb.newThread("a");
        ThreadState b = hb.newThread("b");
        ThreadState c = hb.newThread("c");
        SyncClock v = new SyncClock();
        long aWrite = a.epoch();
        long bWrite = b.epoch();
        hb.release(a, v);
        hb.release(b, v);
        hb.acquire(c, v);
        assertTrue(c.clock().covers(aWrite));
        assertTrue(c.clock().covers(bWrite));
    }

    @Test
    void acquireReleaseActsAsBoth() {
        ThreadState a = hb.newThread("a");
        ThreadState b = hb.newThread("b");
        SyncClock atomic = new SyncClock();
        long aBefore = a.epoch();
        hb.acquireRelease(a, atomic);
        assertEquals(2, a.clock().get(0));
        long bBefore = b.epoch();
        hb.acquireRelease(b, atomic);
        assertTrue(b.clock().covers(aBefore));
        hb.acquire(a, atomic);
        assertTrue(a.clock().covers(bBefore));
    }

    @Test
    void liveThreadsExcludeJoinedAndTerminatedOnes() {
        ThreadState main = hb.newThread("main");
        ThreadState joined = hb.newThread("joined");
        ThreadState exited = hb.newThread("exited");
        ThreadState running = hb.newThread("running");
        assertEquals(List.of(main, joined, exited, running), List.of(hb.liveThreads()));
        hb.join(main, joined);
        hb.terminated(exited);
        assertTrue(joined.isTerminated());
        assertEquals(List.of(main, running), List.of(hb.liveThreads()));
        for (int i = 0; i < 40; i++) {
            hb.newThread("more" + i);
        }
        assertEquals(42, hb.liveThreads().length, "the registry grows past its initial capacity");
    }

    @Test
    void clinitDepthNestsAndNeverGoesNegative() {
        ThreadState t = hb.newThread("t");
        assertFalse(t.inClinit());
        t.enterClinit();
        t.enterClinit();
        t.exitClinit();
        assertTrue(t.inClinit());
        t.exitClinit();
        t.exitClinit();
        assertFalse(t.inClinit());
        t.enterClinit();
        assertTrue(t.inClinit());
    }

    /**
     * Real threads hand a token around a ring through one lock, each incrementing a plain counter; the engine is told
     * about every acquire and release. Whatever the interleaving, each holder's clock must cover the epoch at which the
     * previous holder last released, and thread ids must be unique.
     */
    @Test
    void concurrentThreadsKeepAConsistentOrderThroughALock() throws InterruptedException {
        ThreadState main = hb.newThread("main");
        SyncClock lockClock = new SyncClock();
        Object lock = new Object();
        int threads = 4;
        int rounds = 2000;
        long[] lastReleaseEpoch = {Epoch.BOTTOM};
        List<String> failures = new ArrayList<>();
        List<Thread> started = new ArrayList<>();
        List<ThreadState> states = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            ThreadState s = hb.newThread("w" + i);
            hb.fork(main, s);
            states.add(s);
            Thread t = new Thread(() -> {
                for (int r = 0; r < rounds; r++) {
                    synchronized (lock) {
                        hb.acquire(s, lockClock);
                        if (!s.clock().covers(lastReleaseEpoch[0])) {
                            failures.add(s.name() + " does not cover " + Epoch.toString(lastReleaseEpoch[0]));
                        }
                        lastReleaseEpoch[0] = s.epoch();
                        hb.release(s, lockClock);
                    }
                }
            }, "w" + i);
            started.add(t);
            t.start();
        }
        for (int i = 0; i < threads; i++) {
            started.get(i).join();
            ThreadState s = states.get(i);
            assertEquals(rounds + 1, s.clock().get(s.tid()), "one tick per release");
            hb.join(main, s);
            assertTrue(main.clock().covers(Epoch.of(s.tid(), rounds + 1)));
        }
        assertEquals(List.of(), failures);
        assertEquals(threads + 1, hb.threadCount());
    }

    /** The cover epoch: a thread re-acquiring what it released itself skips the join, and L(s) is kept exact. */
    @Test
    void coverEpochFollowsTheLastReleaserWhoSawEverything() {
        ThreadState a = hb.newThread("a");
        ThreadState b = hb.newThread("b");
        SyncClock m = new SyncClock();
        assertEquals(Epoch.BOTTOM, m.coverEpoch());
        hb.release(a, m); // a covers ⊥: L(m) := C(a) = ⟨1⟩, cover 1@a
        assertEquals(Epoch.of(0, 1), m.coverEpoch());
        assertEquals(VectorClock.of(1), m.snapshot());
        hb.acquire(a, m); // skipped: C(a) = ⟨2⟩ covers 1@a
        assertEquals(VectorClock.of(2), a.clock());
        hb.acquire(b, m); // b does not cover 1@a: joins
        assertEquals(VectorClock.of(1, 1), b.clock());
        hb.release(b, m); // b covers 1@a now: L(m) := C(b), cover 1@b
        assertEquals(Epoch.of(1, 1), m.coverEpoch());
        assertEquals(VectorClock.of(1, 1), m.snapshot());
        hb.acquire(a, m); // a does not cover 1@b: joins and learns b's component
        assertEquals(VectorClock.of(2, 1), a.clock());
    }

    /**
     * Two threads release one volatile without ordering each other: L(s) is their join, no single thread's clock
     * bounds it, so the cover becomes unknown and every acquirer joins — until one of them has seen it all.
     */
    @Test
    void unorderedReleasersMakeTheCoverUnknownUntilSomeoneAcquires() {
        ThreadState a = hb.newThread("a");
        ThreadState b = hb.newThread("b");
        ThreadState c = hb.newThread("c");
        SyncClock v = new SyncClock();
        hb.release(a, v);
        hb.release(b, v); // b never saw a's release
        assertEquals(SyncClock.UNKNOWN, v.coverEpoch());
        assertFalse(a.clock().covers(v.coverEpoch()));
        assertFalse(b.clock().covers(v.coverEpoch()));
        hb.acquire(a, v); // a must learn b's release, even though a released v before
        assertEquals(VectorClock.of(2, 1), a.clock());
        assertEquals(Epoch.of(0, 2), v.coverEpoch()); // a has seen all of L(v) now
        hb.acquire(c, v);
        assertEquals(VectorClock.of(1, 1, 1), c.clock());
    }

    /** acquireRelease leaves L(s) = C(t) before the tick, so the cover is t's epoch. */
    @Test
    void acquireReleaseCoversWithTheCallersEpoch() {
        ThreadState a = hb.newThread("a");
        ThreadState b = hb.newThread("b");
        SyncClock atomic = new SyncClock();
        hb.release(b, atomic);
        hb.acquireRelease(a, atomic);
        assertEquals(VectorClock.of(1, 1), atomic.snapshot());
        assertEquals(Epoch.of(0, 1), atomic.coverEpoch());
        assertTrue(b.clock().covers(Epoch.of(1, 1)));
        assertFalse(b.clock().covers(atomic.coverEpoch()));
    }
}
