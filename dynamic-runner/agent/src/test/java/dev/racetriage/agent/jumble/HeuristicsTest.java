package dev.racetriage.agent.jumble;

import dev.racetriage.agent.hb.HappensBefore;
import dev.racetriage.agent.hb.ThreadState;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The read heuristics, fairness, non-atomic long/double reads, replayability and the stale-read counters. */
class HeuristicsTest {
    private final HappensBefore hb = new HappensBefore();
    private final ThreadState writer = hb.newThread("writer");
    private final ThreadState reader = hb.newThread("reader");

    private WriteBuffer racyBuffer(String heuristic, long seed, int fairness, WriteBuffer.Kind kind, long... writes) {
        JumbleConfig cfg = new JumbleConfig(ReadHeuristics.byName(heuristic), seed, 32, fairness, true);
        WriteBuffer b = new WriteBuffer(kind, 0, null, cfg, seed, null, null);
        for (long w : writes) {
            b.write(writer, w);
        }
        return b;
    }

    private List<Long> reads(WriteBuffer b, int n) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(b.read(reader));
        }
        return out;
    }

    @Test
    void scAlwaysReturnsTheLatestWrite() {
        WriteBuffer b = racyBuffer("sc", 1, 16, WriteBuffer.Kind.NARROW, 1, 2, 3);
        assertEquals(List.of(3L, 3L, 3L, 3L), reads(b, 4));
        assertEquals(0, b.staleReads());
        assertEquals(4, b.reads());
    }

    /** JUMBLE Figure 8: for (..) if (x != null) x.draw(); with x written once by another thread. */
    @Test
    void oldestButDifferentAlternatesWhereOldestIsStuck() {
        WriteBuffer oldest = racyBuffer("oldest", 1, 1000, WriteBuffer.Kind.NARROW, 1);
        assertEquals(List.of(0L, 0L, 0L, 0L), reads(oldest, 4), "oldest: always the stale null");
        WriteBuffer obd = racyBuffer("oldest-but-different", 1, 1000, WriteBuffer.Kind.NARROW, 1);
        assertEquals(List.of(0L, 1L, 0L, 1L), reads(obd, 4), "null, non-null, null, …: the check-then-use breaks");
        assertEquals(2, obd.staleReads());
    }

    @Test
    void randomButDifferentNeverRepeatsWhileAnotherValueIsVisible() {
        WriteBuffer b = racyBuffer("random-but-different", 3, 1000, WriteBuffer.Kind.NARROW, 1, 2, 3);
        List<Long> got = reads(b, 200);
        for (int i = 1; i < got.size(); i++) {
            assertNotEquals(got.get(i - 1), got.get(i), "read " + i);
        }
        assertEquals(Set.of(0L, 1L, 2L, 3L), new HashSet<>(got));
    }

    @Test
    void randomServesEveryVisibleValueAndNothingElse() {
        WriteBuffer b = racyBuffer("random", 5, 1000, WriteBuffer.Kind.NARROW, 1, 2);
        assertEquals(Set.of(0L, 1L, 2L), new HashSet<>(reads(b, 200)));
    }

    @Test
    void sameSeedReplaysTheSameChoicesAndAnotherSeedDoesNot() {
        List<Long> a = reads(racyBuffer("random", 11, 1000, WriteBuffer.Kind.NARROW, 1, 2, 3, 4), 64);
        List<Long> b = reads(racyBuffer("random", 11, 1000, WriteBuffer.Kind.NARROW, 1, 2, 3, 4), 64);
        List<Long> c = reads(racyBuffer("random", 12, 1000, WriteBuffer.Kind.NARROW, 1, 2, 3, 4), 64);
        assertEquals(a, b);
        assertNotEquals(a, c);
    }

    /** while (!done) yield(); — under oldest, a run of stale reads must end with the latest write. */
    @Test
    void fairnessBoundsEveryRunOfStaleReads() {
        WriteBuffer b = racyBuffer("oldest", 1, 3, WriteBuffer.Kind.NARROW, 1);
        List<Long> got = reads(b, 12);
        assertEquals(List.of(0L, 0L, 0L, 1L, 0L, 0L, 0L, 1L, 0L, 0L, 0L, 1L), got);
        for (String h : new String[]{"oldest", "random", "random-but-different", "oldest-but-different"}) {
            WriteBuffer busy = racyBuffer(h, 9, JumbleConfig.DEFAULT_FAIRNESS_LIMIT, WriteBuffer.Kind.NARROW, 1, 0, 1,
                    0, 1);
            int run = 0;
            for (long v : reads(busy, 2000)) {
                run = v == 1 ? 0 : run + 1;
                assertTrue(run <= JumbleConfig.DEFAULT_FAIRNESS_LIMIT, h + ": " + run + " stale reads in a row");
            }
        }
    }

    /**
     * The JGF sor barrier, {@code sync[me]++; while (sync[other] < sync[me]) yield();}: the owner of a counter reads it
     * up to date between the spinner's reads. Fairness counts per reading thread, so the owner's fresh reads do not
     * reset the spinner's run of stale ones, and the spin still ends after the limit.
     */
    @Test
    void fairnessCountsEachReaderApartSoAnotherThreadsFreshReadsDoNotStarveASpinner() {
        WriteBuffer b = racyBuffer("oldest", 1, 3, WriteBuffer.Kind.NARROW, 1);
        List<Long> spinner = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            spinner.add(b.read(reader));
            assertEquals(1L, b.read(writer), "the writer reads its own latest write");
        }
        assertEquals(List.of(0L, 0L, 0L, 1L, 0L, 0L, 0L, 1L), spinner);
    }

    /** A long is read as two 32-bit halves, each from a visible write, and the two writes differ. */
    @Test
    void wideValuesAreTornBetweenTwoVisibleWrites() {
        long a = 0x1111_1111_2222_2222L;
        long c = 0x3333_3333_4444_4444L;
        WriteBuffer b = racyBuffer("random", 21, 1000, WriteBuffer.Kind.WIDE, a, c);
        Set<Long> tops = Set.of(0L, a >>> 32, c >>> 32);
        Set<Long> bottoms = Set.of(0L, a & 0xFFFF_FFFFL, c & 0xFFFF_FFFFL);
        Set<Long> seen = new HashSet<>(reads(b, 300));
        for (long v : seen) {
            assertTrue(tops.contains(v >>> 32) && bottoms.contains(v & 0xFFFF_FFFFL), Long.toHexString(v));
            assertTrue(v != a && v != c && v != 0, "every read mixes two distinct writes: " + Long.toHexString(v));
        }
        assertTrue(seen.contains(0x1111_1111_4444_4444L) || seen.contains(0x3333_3333_2222_2222L), seen.toString());

        WriteBuffer sc = racyBuffer("sc", 21, 1000, WriteBuffer.Kind.WIDE, a, c);
        assertEquals(List.of(c, c, c), reads(sc, 3), "sc reads wide values whole");
        WriteBuffer racyOwn = racyBuffer("random", 21, 1000, WriteBuffer.Kind.WIDE, a);
        racyOwn.write(reader, c);
        assertTrue(reads(racyOwn, 50).contains(0x3333_3333_2222_2222L) || reads(racyOwn, 50)
                .contains(0x1111_1111_4444_4444L), "the writer's a is concurrent with the reader's own c: still torn");

        WriteBuffer ordered = racyBuffer("random", 21, 1000, WriteBuffer.Kind.WIDE, a);
        dev.racetriage.agent.hb.SyncClock m = new dev.racetriage.agent.hb.SyncClock();
        hb.release(writer, m);
        hb.acquire(reader, m);
        ordered.write(reader, c);
        assertEquals(List.of(c, c), reads(ordered, 2), "a ordered before the reader's own c is hidden: nothing to tear");
    }

    /**
     * JUMBLE Figure 2's coordinates: 0.0 and 1.0 differ only in the top half, so tearing them gives one of them back.
     * oldest then serves its stale 0.0 whole in every read instead of handing back 1.0 for half of the tearings.
     */
    @Test
    void wideValuesWhoseTearingGivesNothingNewAreServedWhole() {
        long one = Double.doubleToRawLongBits(1.0);
        WriteBuffer b = racyBuffer("oldest", 5, 1000, WriteBuffer.Kind.WIDE, one);
        assertEquals(java.util.Collections.nCopies(20, 0L), reads(b, 20), "the default 0.0, whole, every time");
        assertEquals(20, b.staleReads());
    }

    @Test
    void fieldStatsCountReadsChoicesAndStaleValues() {
        AdversarialMemory memory = new AdversarialMemory(hb, JumbleConfig.of("oldest", 1));
        WriteBuffer b1 = memory.newBuffer("pkg.C.f", WriteBuffer.Kind.NARROW, 0);
        WriteBuffer b2 = memory.newBuffer("pkg.C.f", WriteBuffer.Kind.NARROW, 0);
        b1.write(writer, 1);
        b1.read(reader); // stale 0
        b1.read(writer); // own write: 1, no choice
        b2.read(reader); // only 0, not stale
        FieldStats f = memory.stats().get(0);
        assertEquals("pkg.C.f", f.fieldKey());
        assertEquals(3, f.reads());
        assertEquals(1, f.readsWithChoice());
        assertEquals(1, f.staleReads());
        assertEquals(1, f.writes());
        assertTrue(f.exercised());
        FieldStats unexercised = new FieldStats("pkg.C.g");
        assertEquals(false, unexercised.exercised());
    }

    @Test
    void locationsOfOneFieldGetDifferentButReplayableSeeds() {
        List<Long> first = new ArrayList<>();
        List<Long> second = new ArrayList<>();
        for (List<Long> out : List.of(first, second)) {
            AdversarialMemory memory = new AdversarialMemory(hb, JumbleConfig.of("random", 77));
            for (int loc = 0; loc < 3; loc++) {
                WriteBuffer b = memory.newBuffer("pkg.C.f", WriteBuffer.Kind.NARROW, 0);
                for (int v = 1; v <= 5; v++) {
                    b.write(writer, v);
                }
                out.addAll(reads(b, 10));
            }
        }
        assertEquals(first, second);
        assertNotEquals(first.subList(0, 10), first.subList(10, 20));
    }

    @Test
    void seededRandomIsUniformEnoughAndRejectsBadBounds() {
        SeededRandom r = new SeededRandom(1);
        int[] counts = new int[4];
        for (int i = 0; i < 4000; i++) {
            counts[r.nextInt(4)]++;
        }
        for (int c : counts) {
            assertTrue(c > 800 && c < 1200, java.util.Arrays.toString(counts));
        }
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> r.nextInt(0));
    }
}
