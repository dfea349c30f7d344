package dev.racetriage.agent.jumble;

import dev.racetriage.agent.hb.HappensBefore;
import dev.racetriage.agent.hb.SyncClock;
import dev.racetriage.agent.hb.ThreadState;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real threads sharing write buffers the way the runtime will: racy reads and writes of one location, and lock-protected
 * read-modify-writes of another, with a small bound so GC1 (which reads other threads' clocks while they run) and
 * REMOVE OLDEST run constantly. Whatever the interleaving: only written values are served, the protected counter
 * loses no update (a thread holding the lock must see the latest write), and nothing throws.
 */
class ConcurrentWriteBufferTest {

    @Test
    void concurrentUseServesOnlyLegalValues() throws InterruptedException {
        HappensBefore hb = new HappensBefore();
        ThreadState main = hb.newThread("main");
        AdversarialMemory memory = new AdversarialMemory(hb,
                new JumbleConfig(ReadHeuristics.byName("random"), 5, 4, 8, true));
        WriteBuffer racy = memory.newBuffer("pkg.C.racy", WriteBuffer.Kind.NARROW, 0);
        WriteBuffer counter = memory.newBuffer("pkg.C.counter", WriteBuffer.Kind.NARROW, 0);
        SyncClock lockClock = new SyncClock();
        Object lock = new Object();
        int workers = 4;
        int rounds = 3000;
        List<String> failures = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        List<ThreadState> states = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            ThreadState s = hb.newThread("w" + w);
            hb.fork(main, s);
            states.add(s);
            int id = w;
            Thread t = new Thread(() -> {
                try {
                    for (int r = 0; r < rounds; r++) {
                        racy.write(s, id * 1_000_000L + r);
                        long v = racy.read(s);
                        if (v != 0 && (v % 1_000_000L >= rounds || v / 1_000_000L >= workers)) {
                            synchronized (failures) {
                                failures.add("served a value nobody wrote: " + v);
                            }
                        }
                        synchronized (lock) {
                            hb.acquire(s, lockClock);
                            counter.write(s, counter.read(s) + 1);
                            hb.release(s, lockClock);
                        }
                    }
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e.toString());
                    }
                }
            });
            threads.add(t);
            t.start();
        }
        for (int w = 0; w < workers; w++) {
            threads.get(w).join();
            hb.join(main, states.get(w));
        }
        assertEquals(List.of(), failures);
        assertEquals((long) workers * rounds, counter.read(main), "a lock-protected counter loses no update");
        assertTrue(counter.size() <= 4 && racy.size() <= 4);
        FieldStats racyStats = memory.stats().get(0);
        assertEquals((long) workers * rounds, racyStats.reads());
        assertEquals(0, memory.stats().get(1).staleReads(), "race-free reads are never stale");
    }
}
