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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * JUMBLE Figure 10's last two columns on traces whose numbers are known: the largest write buffer with compression
 * (what the buffer holds after GC1/GC2, capped by REMOVE OLDEST) and without (the initial entry plus every write).
 */
class BufferSizeTest {
    private final HappensBefore hb = new HappensBefore();

    private static JumbleConfig config(String heuristic, int bound) {
        return new JumbleConfig(ReadHeuristics.byName(heuristic), 3, bound, JumbleConfig.DEFAULT_FAIRNESS_LIMIT, true);
    }

    /**
     * montecarlo's shape: one writer, one reader that synchronises after every write. Each write leaves the reader's
     * last-seen entry and the new one; everything older is garbage no live thread can see.
     */
    @Test
    void aHandOffAfterEveryWriteKeepsTwoEntriesOfEleven() {
        ThreadState writer = hb.newThread("writer");
        ThreadState reader = hb.newThread("reader");
        SyncClock m = new SyncClock();
        AdversarialMemory memory = new AdversarialMemory(hb, config("sc", 32));
        WriteBuffer x = memory.newBuffer("pkg.C.x", WriteBuffer.Kind.NARROW, 0);
        for (int v = 1; v <= 10; v++) {
            x.write(writer, v);
            hb.release(writer, m);
            hb.acquire(reader, m);
            assertEquals(v, x.read(reader));
        }
        assertArrayEquals(new long[]{9, 10}, x.values(), "GC1 ran as the buffer passed its high-water mark");
        FieldStats s = memory.stats().get(0);
        assertEquals(10, s.writes());
        assertEquals(1, s.locations());
        assertEquals(2, s.maxBufferCompressed());
        assertEquals(11, s.maxBufferUncompressed());
        assertEquals(0, s.removedOldest());
        assertEquals(2, x.maxSize());
        assertEquals(11, x.uncompressedSize());
    }

    /** A reader that never synchronises can see every write: nothing is garbage, and the bound is reached. */
    @Test
    void aReaderThatSeesEverythingFillsTheBufferUpToTheBound() {
        ThreadState writer = hb.newThread("writer");
        hb.newThread("reader"); // live, never synchronises
        AdversarialMemory memory = new AdversarialMemory(hb, config("sc", 4));
        WriteBuffer x = memory.newBuffer("pkg.C.x", WriteBuffer.Kind.NARROW, 0);
        SyncClock m = new SyncClock();
        for (int v = 1; v <= 10; v++) {
            x.write(writer, v);
            hb.release(writer, m);
        }
        assertArrayEquals(new long[]{7, 8, 9, 10}, x.values());
        FieldStats s = memory.stats().get(0);
        assertEquals(4, s.maxBufferCompressed());
        assertEquals(11, s.maxBufferUncompressed());
        assertEquals(7, s.removedOldest(), "writes 4..10 each dropped the oldest entry");
    }

    /** Without GC1 (no engine), GC2 alone: one thread writing the same value at one clock keeps one entry. */
    @Test
    void gc2AloneCountsInTheCompressedSize() {
        ThreadState t = hb.newThread("t");
        AdversarialMemory memory = new AdversarialMemory(null, config("sc", 32));
        WriteBuffer x = memory.newBuffer("pkg.C.x", WriteBuffer.Kind.NARROW, 0);
        for (int i = 0; i < 5; i++) {
            x.write(t, 5);
        }
        assertArrayEquals(new long[]{0, 5}, x.values());
        FieldStats s = memory.stats().get(0);
        assertEquals(2, s.maxBufferCompressed());
        assertEquals(6, s.maxBufferUncompressed());
    }

    /** Figure 7: thread 1 has not synchronised yet, so 0@⊥ · 13 · 42 are all needed; GC1 may drop nothing. */
    @Test
    void figure7NeedsAllThreeEntries() {
        ThreadState t0 = hb.newThread("Thread 0");
        ThreadState t1 = hb.newThread("Thread 1");
        t0.clock().set(0, 4);
        t1.clock().set(1, 7);
        SyncClock m = new SyncClock();
        AdversarialMemory memory = new AdversarialMemory(hb, config("sc", 32));
        WriteBuffer x = memory.newBuffer("pkg.C.x", WriteBuffer.Kind.NARROW, 0);
        hb.acquire(t0, m);
        x.write(t0, 13);
        x.write(t0, 42);
        hb.release(t0, m);
        assertEquals(3, x.size());
        FieldStats s = memory.stats().get(0);
        assertEquals(3, s.maxBufferCompressed());
        assertEquals(3, s.maxBufferUncompressed());
    }

    /** The field's numbers are maxima over its locations; a location only read still counts its one entry. */
    @Test
    void maximaAreOverTheFieldsLocations() {
        ThreadState t = hb.newThread("t");
        hb.newThread("idle"); // keeps every write visible
        AdversarialMemory memory = new AdversarialMemory(hb, config("sc", 32));
        WriteBuffer a = memory.newBuffer("pkg.C.f", WriteBuffer.Kind.NARROW, 0);
        WriteBuffer b = memory.newBuffer("pkg.C.f", WriteBuffer.Kind.NARROW, 0);
        memory.newBuffer("pkg.C.f", WriteBuffer.Kind.NARROW, 0).read(t);
        a.write(t, 1);
        for (int v = 1; v <= 3; v++) {
            b.write(t, v);
        }
        FieldStats s = memory.stats().get(0);
        assertEquals(3, s.locations());
        assertEquals(4, s.writes());
        assertEquals(4, s.maxBufferCompressed(), "b: 0@⊥ · 1 · 2 · 3, all visible to the idle thread");
        assertEquals(4, s.maxBufferUncompressed());
        FieldStats unused = new FieldStats("pkg.C.g");
        assertEquals(0, unused.maxBufferCompressed());
        assertEquals(0, unused.locations());
    }

    /**
     * Running GC1 whenever the buffer passes its high-water mark must not change what is served: on random traces,
     * every heuristic serves the same value for every read with GC1 (engine given) as without it (no engine), and
     * the compressed buffer is never larger.
     */
    @Test
    void compressingEarlyServesTheSameValuesAsNeverCompressing() {
        Random random = new Random(99);
        String[] heuristics = {"sc", "oldest", "oldest-but-different", "random", "random-but-different"};
        int smaller = 0;
        for (int round = 0; round < 600; round++) {
            String h = heuristics[round % heuristics.length];
            HappensBefore engine = new HappensBefore();
            List<ThreadState> threads = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                threads.add(engine.newThread("t" + i));
            }
            List<SyncClock> locks = List.of(new SyncClock(), new SyncClock());
            // bound 64 and at most 40 writes: REMOVE OLDEST never applies, so only GC1 differs
            WriteBuffer compressed = new WriteBuffer(WriteBuffer.Kind.NARROW, 0, null, config(h, 64), 5, engine, null);
            WriteBuffer plain = new WriteBuffer(WriteBuffer.Kind.NARROW, 0, null, config(h, 64), 5, null, null);
            for (int op = 0; op < 80; op++) {
                ThreadState t = threads.get(random.nextInt(threads.size()));
                switch (random.nextInt(5)) {
                    case 0 -> {
                        long v = random.nextInt(4);
                        compressed.write(t, v);
                        plain.write(t, v);
                    }
                    case 1, 2 -> assertEquals(plain.read(t), compressed.read(t),
                            "round " + round + " (" + h + "), op " + op + ": " + plain + " vs " + compressed);
                    case 3 -> engine.acquire(t, locks.get(random.nextInt(2)));
                    default -> engine.release(t, locks.get(random.nextInt(2)));
                }
            }
            assertTrue(compressed.maxSize() <= plain.maxSize());
            assertEquals(plain.uncompressedSize(), compressed.uncompressedSize());
            if (compressed.maxSize() < plain.maxSize()) {
                smaller++;
            }
        }
        assertTrue(smaller > 100, "GC1 made the buffer smaller in only " + smaller + " rounds: the test is vacuous");
    }
}
