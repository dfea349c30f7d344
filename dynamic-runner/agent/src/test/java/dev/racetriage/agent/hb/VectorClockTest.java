package dev.racetriage.agent.hb;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VectorClockTest {

    @Test
    void freshClockIsBottomAndBelowEverything() {
        VectorClock bottom = new VectorClock();
        assertEquals("⊥", bottom.toString());
        assertEquals(0, bottom.get(5));
        assertTrue(bottom.leq(VectorClock.of(0, 3)));
        assertTrue(bottom.leq(new VectorClock()));
    }

    @Test
    void joinIsPointwiseMaxAndGrows() {
        VectorClock a = VectorClock.of(4, 0);
        a.join(VectorClock.of(1, 7, 2));
        assertEquals(VectorClock.of(4, 7, 2), a);
        assertEquals("⟨4,7,2⟩", a.toString());
    }

    @Test
    void leqIsPointwiseAndTreatsMissingComponentsAsZero() {
        assertTrue(VectorClock.of(4, 0).leq(VectorClock.of(4, 7)));
        assertFalse(VectorClock.of(4, 0).leq(VectorClock.of(0, 7)));
        assertFalse(VectorClock.of(0, 7).leq(VectorClock.of(4, 0)));
        assertTrue(VectorClock.of(2, 0, 0, 0).leq(VectorClock.of(2)));
        assertFalse(VectorClock.of(0, 0, 1).leq(VectorClock.of(2)));
    }

    @Test
    void tickIncrementsOneComponent() {
        VectorClock a = new VectorClock();
        assertEquals(1, a.tick(3));
        assertEquals(2, a.tick(3));
        assertEquals(VectorClock.of(0, 0, 0, 2), a);
    }

    @Test
    void tickSaturatesInsteadOfWrapping() {
        VectorClock a = new VectorClock();
        a.set(1, Integer.MAX_VALUE - 1);
        assertEquals(Integer.MAX_VALUE, a.tick(1));
        assertEquals(Integer.MAX_VALUE, a.tick(1));
        assertTrue(VectorClock.of(0, 5).leq(a));
    }

    @Test
    void copiesAreIndependent() {
        VectorClock a = VectorClock.of(1, 2, 3);
        VectorClock b = new VectorClock(a);
        b.tick(0);
        assertEquals(VectorClock.of(1, 2, 3), a);
        VectorClock c = VectorClock.of(9, 9, 9, 9);
        c.copyFrom(VectorClock.of(1));
        assertEquals(VectorClock.of(1), c);
        assertEquals(VectorClock.of(1).hashCode(), c.hashCode());
        c.copyFrom(VectorClock.of(5, 6, 7, 8, 9));
        assertEquals(VectorClock.of(5, 6, 7, 8, 9), c);
    }

    @Test
    void equalityIgnoresTrailingZeros() {
        assertEquals(VectorClock.of(1, 0, 0), VectorClock.of(1));
        assertNotEquals(VectorClock.of(1, 0, 1), VectorClock.of(1));
    }

    @Test
    void coversComparesOneComponentOfAnEpoch() {
        VectorClock k = VectorClock.of(4, 7);
        assertTrue(k.covers(Epoch.of(0, 4)));
        assertFalse(k.covers(Epoch.of(0, 5)));
        assertTrue(k.covers(Epoch.of(1, 7)));
        assertFalse(k.covers(Epoch.of(2, 1)));
        assertTrue(k.covers(Epoch.BOTTOM));
        assertTrue(new VectorClock().covers(Epoch.of(9, 0)), "any clock-0 epoch is ⊥");
    }

    @Test
    void epochPacksThreadAndClock() {
        long e = Epoch.of(70_000, Integer.MAX_VALUE);
        assertEquals(70_000, Epoch.tid(e));
        assertEquals(Integer.MAX_VALUE, Epoch.clock(e));
        assertEquals("3@2", Epoch.toString(Epoch.of(2, 3)));
        assertEquals("⊥", Epoch.toString(Epoch.BOTTOM));
        assertTrue(Epoch.isBottom(Epoch.of(5, 0)));
    }

    @Test
    void clocksJoiningEachOtherDoNotGrowBeyondTheThreadsSeen() {
        VectorClock thread = VectorClock.of(1, 1, 1, 1, 1);
        VectorClock lock = new VectorClock();
        lock.tick(0);
        for (int i = 0; i < 100; i++) {
            lock.join(thread);
            thread.join(lock);
            thread.tick(4);
        }
        assertTrue(thread.width() <= 5, "width " + thread.width());
        assertTrue(lock.width() <= 5, "width " + lock.width());
    }
}
