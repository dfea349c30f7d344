package dev.racetriage.agent.jumble;

import dev.racetriage.agent.hb.HappensBefore;
import dev.racetriage.agent.hb.SyncClock;
import dev.racetriage.agent.hb.ThreadState;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a run reports as the heuristics that would have made it ({@link SameChoices}) must be exact: replaying the same
 * operations under such a heuristic serves the very same values, read for read. The runner counts such a run for that
 * heuristic's benign rule, so a heuristic reported alike that would have served something else would let a race pass
 * as benign on runs that never tried it.
 */
class SameChoicesTest {
    private static final String[] READ_HEURISTICS =
            {"oldest", "oldest-but-different", "random", "random-but-different"};
    /** In {@link SameChoices} bit order. */
    private static final String[] SHARING = {"oldest", "oldest-but-different", "random-but-different", "random"};

    /** One program: per step a thread, an operation (write, read, acquire, release) and a value. */
    private record Program(WriteBuffer.Kind kind, int[] thread, int[] op, long[] value) {}

    private static Program program(Random random, WriteBuffer.Kind kind) {
        int steps = 10 + random.nextInt(30);
        int[] thread = new int[steps];
        int[] op = new int[steps];
        long[] value = new long[steps];
        for (int i = 0; i < steps; i++) {
            thread[i] = random.nextInt(3);
            op[i] = random.nextInt(6); // 0, 1: write; 2, 3: read; 4: acquire; 5: release
            value[i] = kind == WriteBuffer.Kind.WIDE ? random.nextLong() >>> random.nextInt(64) : random.nextInt(3);
        }
        return new Program(kind, thread, op, value);
    }

    /** The values the program's reads are served under {@code heuristic}, and the heuristics that chose otherwise. */
    private static Replay replay(Program p, String heuristic, long seed) {
        HappensBefore hb = new HappensBefore();
        List<ThreadState> threads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            threads.add(hb.newThread("t" + i));
        }
        SyncClock lock = new SyncClock();
        FieldStats stats = new FieldStats("p.C.f");
        WriteBuffer b = new WriteBuffer(p.kind(), 0, null,
                new JumbleConfig(ReadHeuristics.byName(heuristic), seed, 6, 3, true), seed, hb, stats);
        List<Long> served = new ArrayList<>();
        for (int i = 0; i < p.op().length; i++) {
            ThreadState t = threads.get(p.thread()[i]);
            switch (p.op()[i]) {
                case 0, 1 -> b.write(t, p.value()[i]);
                case 2, 3 -> served.add(b.read(t));
                case 4 -> hb.acquire(t, lock);
                default -> hb.release(t, lock);
            }
        }
        return new Replay(served.stream().mapToLong(Long::longValue).toArray(), stats.unlikeHeuristics(),
                stats.staleReads());
    }

    private record Replay(long[] served, int unlike, long stale) {}

    @Test
    void aHeuristicReportedAlikeServesTheSameValuesReadForRead() {
        Random random = new Random(2026_11_29L);
        int alike = 0;
        int unlike = 0;
        int alikeWithStaleValues = 0;
        for (int round = 0; round < 3000; round++) {
            WriteBuffer.Kind kind = round % 5 == 0 ? WriteBuffer.Kind.WIDE : WriteBuffer.Kind.NARROW;
            Program p = program(random, kind);
            String own = READ_HEURISTICS[random.nextInt(READ_HEURISTICS.length)];
            long seed = random.nextLong();
            Replay run = replay(p, own, seed);
            for (int i = 0; i < SHARING.length; i++) {
                if (SHARING[i].equals(own)) {
                    continue;
                }
                if ((run.unlike() & (1 << i)) != 0) {
                    unlike++;
                    continue;
                }
                alike++;
                if (run.stale() > 0) {
                    alikeWithStaleValues++;
                }
                // the run it would have made with the same seed (random and random-but-different draw alike)
                String same = SHARING[i];
                Replay other = replay(p, same, seed);
                assertArrayEquals(run.served(), other.served(), () -> own + " was reported alike with " + same
                        + " on a program it serves otherwise");
                assertEquals(run.stale(), other.stale());
            }
        }
        // neither vacuous nor trivial: runs with stale values that others share, and runs they do not
        assertTrue(alikeWithStaleValues > 100, "alike with stale values: " + alikeWithStaleValues);
        assertTrue(unlike > 500, "unlike: " + unlike);
        assertTrue(alike > alikeWithStaleValues, "alike: " + alike);
    }

    /** A flag 0 another thread set to 1, unordered with the reader, under {@code heuristic}; and its counters. */
    private record Flag(WriteBuffer buffer, ThreadState reader, FieldStats stats) {
        static Flag setUnder(String heuristic) {
            HappensBefore hb = new HappensBefore();
            ThreadState writer = hb.newThread("writer");
            FieldStats stats = new FieldStats("p.C.flag");
            WriteBuffer flag = new WriteBuffer(WriteBuffer.Kind.NARROW, 0, null, JumbleConfig.of(heuristic, 1), 1, hb,
                    stats);
            Flag f = new Flag(flag, hb.newThread("reader"), stats);
            flag.write(writer, 1);
            return f;
        }

        long read() {
            return buffer.read(reader);
        }

        java.util.List<String> alike(String heuristic) {
            return java.util.List.of(SameChoices.alike(heuristic, stats.unlikeHeuristics()));
        }
    }

    @Test
    void aFlagReadOnceIsTheSameRunUnderBothOldestHeuristicsButNotAfterItsSecondRead() {
        Flag flag = Flag.setUnder("oldest");
        assertEquals(0, flag.read()); // the stale 0: oldest-but-different serves it too (never read: it differs)
        assertEquals(java.util.List.of("oldest-but-different"), flag.alike("oldest"),
                "the random heuristics draw between 0 and 1 at a location never read");
        assertEquals(0, flag.read()); // oldest again; oldest-but-different now serves the 1 that differs from 0
        assertEquals(java.util.List.of(), flag.alike("oldest"));
    }

    @Test
    void theRandomHeuristicsDrawAlikeWhereEveryVisibleValueDiffersFromTheLastOneRead() {
        Flag flag = Flag.setUnder("random");
        long first = flag.read();
        assertTrue(flag.alike("random").contains("random-but-different"), "the first read: both draw from {0, 1}");
        flag.read(); // random draws from {0, 1} again, random-but-different would take the other value alone
        assertFalse(flag.alike("random").contains("random-but-different"), "after " + first);
        assertArrayEquals(new String[0], SameChoices.alike("sc", 0), "the control shares no run");
    }
}
