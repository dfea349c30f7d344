package dev.racetriage.agent.jumble;

import dev.racetriage.agent.hb.HappensBefore;
import dev.racetriage.agent.hb.SyncClock;
import dev.racetriage.agent.hb.ThreadState;
import dev.racetriage.agent.hb.VectorClock;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The write buffer rules one by one: JUMBLE Figure 7 step by step, GC1, GC2, REMOVE OLDEST. */
class WriteBufferTest {
    private final HappensBefore hb = new HappensBefore();

    private WriteBuffer buffer(String heuristic, int bound, HappensBefore live) {
        JumbleConfig cfg = new JumbleConfig(ReadHeuristics.byName(heuristic), 42, bound,
                JumbleConfig.DEFAULT_FAIRNESS_LIMIT, true);
        return new WriteBuffer(WriteBuffer.Kind.NARROW, 0, null, cfg, 7, live, null);
    }

    /** Figure 7, each row: the clocks, the buffer, and which entries each read may return. */
    @Test
    void figure7StepByStep() {
        ThreadState t0 = hb.newThread("Thread 0");
        ThreadState t1 = hb.newThread("Thread 1");
        t0.clock().set(0, 4);
        t1.clock().set(1, 7);
        SyncClock m = new SyncClock();
        WriteBuffer x = buffer("sc", 32, null);
        assertEquals("0@⊥", x.toString());

        hb.acquire(t0, m); // acq(0,m)
        assertEquals(VectorClock.of(4, 0), t0.clock());
        x.write(t0, 13); // wr(0,x,13)
        assertEquals("0@⊥ · 13@⟨4⟩", x.toString());
        x.write(t0, 42); // wr(0,x,42): same clock as 13, but the order of entries keeps them apart
        assertEquals("0@⊥ · 13@⟨4⟩ · 42@⟨4⟩", x.toString());
        hb.release(t0, m); // rel(0,m)
        assertEquals(VectorClock.of(4, 0), m.snapshot());
        assertEquals(VectorClock.of(5, 0), t0.clock());

        // rd(1,x,v) at C1 = ⟨0,7⟩: 42 is last; 13 and 0 are visible because ⟨4,0⟩ ⋢ ⟨0,7⟩
        assertEquals(VectorClock.of(0, 7), t1.clock());
        assertEquals(0b111, x.visibleTo(t1.clock()));
        assertEquals(0, x.gc1(t0.clock(), t1.clock()), "GC1 may drop nothing: thread 1 can see every entry");

        hb.acquire(t1, m); // acq(1,m)
        assertEquals(VectorClock.of(4, 7), t1.clock());
        // rd(1,x,v') at C1 = ⟨4,7⟩: only 42; 13 is hidden by the later 42@⟨4,0⟩ ⊑ ⟨4,7⟩, and so is 0@⊥
        assertEquals(0b100, x.visibleTo(t1.clock()));
        assertEquals(42, x.read(t1));
        // thread 0 sees only its own last write
        assertEquals(0b100, x.visibleTo(t0.clock()));

        // GC1 on the final state: 0@⊥ and 13@⟨4,0⟩ go, 42@⟨4,0⟩ is the intervening write for both threads
        assertEquals(2, x.gc1(t0.clock(), t1.clock()));
        assertEquals("42@⟨4⟩", x.toString());
    }

    @Test
    void figure7FirstReadUnderEachHeuristic() {
        for (String h : new String[]{"sc", "oldest", "oldest-but-different", "random", "random-but-different"}) {
            HappensBefore engine = new HappensBefore();
            ThreadState t0 = engine.newThread("0");
            ThreadState t1 = engine.newThread("1");
            WriteBuffer x = buffer(h, 32, null);
            x.write(t0, 13);
            x.write(t0, 42);
            long v = x.read(t1);
            switch (h) {
                case "sc" -> assertEquals(42, v);
                case "oldest", "oldest-but-different" -> assertEquals(0, v);
                default -> assertTrue(v == 0 || v == 13 || v == 42, h + " served " + v);
            }
        }
    }

    @Test
    void gc2DropsTheEarlierOfTwoEqualWritesAtTheSameClock() {
        ThreadState t = hb.newThread("t");
        ThreadState reader = hb.newThread("r");
        WriteBuffer x = buffer("sc", 32, null);
        x.write(t, 5);
        x.write(t, 5);
        assertArrayEquals(new long[]{0, 5}, x.values());
        x.write(t, 6);
        x.write(t, 5);
        assertArrayEquals(new long[]{0, 6, 5}, x.values(), "not only adjacent entries: any earlier equal one");
        hb.release(t, new SyncClock());
        x.write(t, 5);
        assertArrayEquals(new long[]{0, 6, 5, 5}, x.values(), "a release in between: different clocks, both kept");
        ThreadState other = hb.newThread("o");
        x.write(other, 5);
        assertArrayEquals(new long[]{0, 6, 5, 5, 5}, x.values(), "another thread's equal value is kept");
        assertEquals(0b11111, x.visibleTo(reader.clock()));
    }

    @Test
    void gc1AtTheBoundDropsWhatNoLiveThreadCanSeeBeforeRemovingTheOldest() {
        ThreadState w = hb.newThread("writer");
        ThreadState r = hb.newThread("reader");
        SyncClock m = new SyncClock();
        WriteBuffer x = buffer("sc", 4, hb);
        for (int v = 1; v <= 3; v++) {
            x.write(w, v);
            hb.release(w, m);
        }
        assertArrayEquals(new long[]{0, 1, 2, 3}, x.values());
        hb.acquire(r, m); // now both live threads see only 3: entries 0..2 are garbage
        x.write(w, 4);
        assertArrayEquals(new long[]{3, 4}, x.values(), "GC1 made room; nothing visible was lost");
        assertEquals(0b11, x.visibleTo(r.clock()));
    }

    @Test
    void removeOldestOnlyAtTheBoundWhenEverythingIsStillVisible() {
        ThreadState w = hb.newThread("writer");
        ThreadState r = hb.newThread("reader"); // never synchronises: sees every entry
        SyncClock m = new SyncClock();
        WriteBuffer x = buffer("sc", 4, hb);
        for (int v = 1; v <= 3; v++) {
            x.write(w, v);
            hb.release(w, m);
        }
        assertEquals(4, x.size(), "below the bound nothing is dropped");
        for (int v = 4; v <= 6; v++) {
            x.write(w, v);
            hb.release(w, m);
        }
        assertArrayEquals(new long[]{3, 4, 5, 6}, x.values());
        assertEquals(0b1111, x.visibleTo(r.clock()));
        assertEquals(0b1000, x.visibleTo(w.clock()));
    }

    @Test
    void terminatedThreadsNoLongerKeepEntriesAlive() {
        ThreadState main = hb.newThread("main");
        ThreadState w = hb.newThread("w");
        ThreadState r = hb.newThread("r");
        SyncClock m = new SyncClock();
        WriteBuffer x = buffer("sc", 3, hb);
        x.write(w, 1);
        hb.release(w, m);
        x.write(w, 2);
        hb.release(w, m);
        hb.acquire(main, m);
        hb.join(main, r); // r ended without ever seeing the writes
        x.write(w, 3);
        assertArrayEquals(new long[]{2, 3}, x.values(), "with r gone, GC1 drops 0 and 1");
    }

    @Test
    void clinitWritesAreStampedBottomAndHideTheDefaultFromEveryone() {
        ThreadState init = hb.newThread("init");
        ThreadState late = hb.newThread("late");
        WriteBuffer x = buffer("oldest", 32, null);
        init.enterClinit();
        x.write(init, 9);
        init.exitClinit();
        assertEquals("0@⊥ · 9@⊥", x.toString());
        assertEquals(0b10, x.visibleTo(late.clock()), "⊥ ⊑ ⊥ ⊑ C(t): the default is hidden for every thread");
        assertEquals(9, x.read(late));
        assertEquals(1, x.gc1(late.clock(), init.clock()));
    }

    @Test
    void referencesAreComparedByIdentity() {
        ThreadState w = hb.newThread("w");
        ThreadState r = hb.newThread("r");
        JumbleConfig cfg = JumbleConfig.of("oldest-but-different", 1);
        WriteBuffer x = new WriteBuffer(WriteBuffer.Kind.REFERENCE, 0, null, cfg, 1, null, null);
        String a = new String("circle");
        String b = new String("circle");
        x.writeRef(w, a);
        x.writeRef(w, b);
        assertEquals(3, x.size(), "equal but distinct objects are distinct values");
        Object first = x.readRef(r);
        Object second = x.readRef(r);
        assertSame(null, first, "oldest visible: the default null");
        assertSame(a, second, "oldest different from null: a");
        assertSame(null, x.readRef(r), "and back: oldest different from a");
        assertSame(b, x.readRef(w), "the writer sees only its own last write");
    }

    @Test
    void configRejectsBadSettingsWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JumbleConfig.of("newest", 1));
        assertTrue(e.getMessage().contains("oldest-but-different"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new JumbleConfig(new Oldest(), 1, 1, 16, true));
        assertThrows(IllegalArgumentException.class,
                () -> new JumbleConfig(new Oldest(), 1, 65, 16, true));
        assertThrows(IllegalArgumentException.class,
                () -> new JumbleConfig(new Oldest(), 1, 32, 0, true));
    }
}
