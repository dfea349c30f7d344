package dev.racetriage.agent.detect;

import org.junit.jupiter.api.Test;

import java.util.BitSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** JRF Figure 1, one rule at a time, on the literal bitset h. Threads 0..2, sync objects 10.., locations 0... */
class HSummaryReferenceTest {
    private static final int T0 = 0;
    private static final int T1 = 1;
    private static final int T2 = 2;
    private static final int M = 10;
    private static final int V = 11;
    private static final int X = 0;
    private static final int Y = 1;

    private final HSummaryReference h = new HSummaryReference();

    @Test
    void instantiateAddsTheNewObjectsLocationsToTheCreatorOnly() {
        h.instantiate(T0, X, Y);
        assertTrue(h.threadHas(T0, X));
        assertTrue(h.threadHas(T0, Y));
        assertFalse(h.threadHas(T1, X));
        assertNull(h.read(T0, X));
        assertNull(h.write(T0, Y));
        assertEquals(RaceKind.WR, h.read(T1, X), "an unpublished object's field read by another thread is a WR race");
    }

    @Test
    void releaseUnitesTheThreadsRowIntoTheSyncObjectsRow() {
        h.instantiate(T0, X);
        assertFalse(h.syncHas(M, X));
        h.release(T0, M);
        assertTrue(h.syncHas(M, X));
        assertTrue(h.threadHas(T0, X), "release keeps h(t)");
        assertFalse(h.threadHas(T1, X), "release alone gives nothing to other threads");
    }

    @Test
    void acquireUnitesTheSyncObjectsRowIntoTheThreadsRow() {
        h.instantiate(T0, X);
        h.release(T0, M);
        h.acquire(T1, M);
        assertTrue(h.threadHas(T1, X));
        assertNull(h.read(T1, X));
        h.acquire(T2, V);
        assertFalse(h.threadHas(T2, X), "acquiring another object gives nothing");
    }

    @Test
    void writeInvalidatesEveryOtherRowAndKeepsTheWriters() {
        h.instantiate(T0, X);
        h.release(T0, M);
        h.acquire(T1, M);
        h.release(T1, V);
        assertNull(h.write(T1, X));
        assertTrue(h.threadHas(T1, X));
        assertFalse(h.threadHas(T0, X), "invalidate removes x from the other threads");
        assertFalse(h.syncHas(M, X), "and from every sync object");
        assertFalse(h.syncHas(V, X));
        assertEquals(RaceKind.WR, h.read(T0, X));
        assertEquals(RaceKind.WW, h.write(T0, X));
    }

    @Test
    void aRacyWriteStillMakesTheWriterTheOwner() {
        h.instantiate(T0, X);
        assertEquals(RaceKind.WW, h.write(T1, X));
        assertTrue(h.threadHas(T1, X));
        assertFalse(h.threadHas(T0, X));
        assertNull(h.read(T1, X));
    }

    @Test
    void readChangesNothingAndRepeatsTheRace() {
        h.instantiate(T0, X);
        BitSet before0 = h.threadRow(T0);
        assertEquals(RaceKind.WR, h.read(T1, X));
        assertEquals(RaceKind.WR, h.read(T1, X));
        assertEquals(before0, h.threadRow(T0));
        assertFalse(h.threadHas(T1, X));
    }

    @Test
    void startIsReleaseIntoTheChildAndJoinIsAcquireFromIt() {
        h.instantiate(T0, X);
        h.fork(T0, T1);
        assertTrue(h.threadHas(T1, X), "start thread t': release(t, t')");
        h.instantiate(T1, Y);
        assertFalse(h.threadHas(T0, Y));
        h.join(T0, T1);
        assertTrue(h.threadHas(T0, Y), "join thread t': acquire(t, t')");
        assertNull(h.read(T0, Y));
    }

    @Test
    void staticsStartInTheClassInitialisersRowAndReachEveryThread() {
        h.instantiate(T0, Y);
        h.release(T0, M);
        h.clinitWrite(T0, X);
        assertTrue(h.threadHas(T0, X));
        assertTrue(h.threadHas(T1, X), "a thread appearing later starts with the statics");
        assertTrue(h.syncHas(M, X));
        assertTrue(h.syncHas(V, X), "a new sync object's row starts with the statics too");
        assertNull(h.read(T2, X));
        assertNull(h.write(T2, X), "a write after class initialisation is ordered after it");
        assertEquals(RaceKind.WR, h.read(T1, X), "once written outside <clinit>, the static is an ordinary location");
        assertFalse(h.threadHas(T0 + 5, X), "the class initialiser's row lost it too, so new threads do not get it");
    }
}
