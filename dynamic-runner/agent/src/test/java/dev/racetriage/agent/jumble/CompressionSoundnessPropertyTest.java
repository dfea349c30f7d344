package dev.racetriage.agent.jumble;

import dev.racetriage.agent.hb.HappensBefore;
import dev.racetriage.agent.hb.SyncClock;
import dev.racetriage.agent.hb.ThreadState;
import dev.racetriage.agent.hb.VectorClock;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GC1 given only some of the readers — as at run time, when a thread the runtime has not seen yet may read later —
 * must never make a hidden value visible to anyone: for every clock (the threads', ⊥, later clocks of the threads),
 * the values visible after compression are a subset of those visible before.
 */
class CompressionSoundnessPropertyTest {

    @Test
    void gc1WithAPartialReaderSetNeverUnhidesAValue() {
        Random random = new Random(1234);
        int checked = 0;
        int dropped = 0;
        for (int round = 0; round < 2000; round++) {
            HappensBefore hb = new HappensBefore();
            List<ThreadState> threads = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                threads.add(hb.newThread("t" + i));
            }
            List<SyncClock> locks = List.of(new SyncClock(), new SyncClock());
            WriteBuffer b = new WriteBuffer(WriteBuffer.Kind.NARROW, 0, null, JumbleConfig.of("sc", 1), 1, null,
                    null);
            for (int op = 0; op < 25; op++) {
                ThreadState t = threads.get(random.nextInt(threads.size()));
                switch (random.nextInt(4)) {
                    case 0, 1 -> {
                        if (random.nextInt(8) == 0) {
                            t.enterClinit();
                            b.write(t, random.nextInt(6));
                            t.exitClinit();
                        } else {
                            b.write(t, random.nextInt(6));
                        }
                    }
                    case 2 -> hb.acquire(t, locks.get(random.nextInt(2)));
                    default -> hb.release(t, locks.get(random.nextInt(2)));
                }
            }
            List<VectorClock> probes = new ArrayList<>();
            probes.add(new VectorClock());
            for (ThreadState t : threads) {
                probes.add(new VectorClock(t.clock()));
                VectorClock later = new VectorClock(t.clock());
                later.join(locks.get(0).snapshot());
                probes.add(later);
            }
            List<Set<Long>> before = new ArrayList<>();
            for (VectorClock c : probes) {
                before.add(visibleValues(b, c));
            }
            List<VectorClock> readers = new ArrayList<>();
            for (ThreadState t : threads) {
                if (random.nextBoolean()) {
                    readers.add(t.clock());
                }
            }
            dropped += b.gc1(readers.toArray(new VectorClock[0]));
            for (int p = 0; p < probes.size(); p++) {
                Set<Long> after = visibleValues(b, probes.get(p));
                assertTrue(before.get(p).containsAll(after),
                        "round " + round + ": probe " + probes.get(p) + " saw " + before.get(p) + ", now " + after);
                checked++;
            }
        }
        assertTrue(dropped > 1000, "GC1 dropped only " + dropped + " entries: the test would be vacuous");
        assertTrue(checked > 10_000);
    }

    private static Set<Long> visibleValues(WriteBuffer b, VectorClock c) {
        long vis = b.visibleTo(c);
        Set<Long> out = new HashSet<>();
        for (int i = 0; i < b.size(); i++) {
            if ((vis & (1L << i)) != 0) {
                out.add(b.bitsAt(i));
            }
        }
        return out;
    }
}
