package dev.racetriage.agent.detect;

import dev.racetriage.agent.hb.HappensBefore;
import dev.racetriage.agent.hb.SyncClock;
import dev.racetriage.agent.hb.ThreadState;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HSummaryDetectorTest {
    private final HappensBefore hb = new HappensBefore();
    private final SiteTable sites = new SiteTable();
    private final List<RaceReport> reports = new ArrayList<>();
    private final HSummaryDetector detector = new HSummaryDetector(sites, this::collect);
    private final int writeSite = sites.register("pkg.Box", "set", "Box.java", 7);
    private final int readSite = sites.register("pkg.Box", "get", "Box.java", 12);

    private synchronized void collect(RaceReport r) {
        reports.add(r);
    }

    @Test
    void unseenLocationIsAtBottomAndNeverRaces() {
        ThreadState a = hb.newThread("a");
        LocationState x = new LocationState("pkg.Box.value");
        assertTrue(detector.inSummary(a, x));
        assertFalse(detector.read(a, x, readSite));
        assertFalse(detector.write(a, x, writeSite));
        assertEquals(List.of(), reports);
    }

    @Test
    void unorderedWriteThenReadIsWrWithBothAccesses() {
        ThreadState writer = hb.newThread("writer");
        ThreadState reader = hb.newThread("reader");
        LocationState x = new LocationState("pkg.Box.value");
        assertFalse(detector.write(writer, x, writeSite));
        assertTrue(detector.read(reader, x, readSite));
        assertEquals(1, reports.size());
        RaceReport r = reports.get(0);
        assertEquals("pkg.Box.value", r.fieldKey());
        assertEquals(RaceKind.WR, r.kind());
        assertEquals("reader", r.current().threadName());
        assertEquals(new Site("pkg.Box", "get", "Box.java", 12), r.current().site());
        assertEquals("writer", r.previous().threadName());
        assertEquals(new Site("pkg.Box", "set", "Box.java", 7), r.previous().site());
        assertEquals(List.of(), r.previous().stack());
        assertEquals(1, detector.raceCount());
    }

    @Test
    void unorderedWriteThenWriteIsWwAndTheSecondWriterTakesOver() {
        ThreadState a = hb.newThread("a");
        ThreadState b = hb.newThread("b");
        LocationState x = new LocationState("pkg.Box.value");
        detector.write(a, x, writeSite);
        assertTrue(detector.write(b, x, writeSite));
        assertEquals(RaceKind.WW, reports.get(0).kind());
        assertTrue(detector.inSummary(b, x));
        assertFalse(detector.inSummary(a, x));
        assertFalse(detector.read(b, x, readSite));
    }

    @Test
    void lockHandOffOrdersTheAccesses() {
        ThreadState a = hb.newThread("a");
        ThreadState b = hb.newThread("b");
        SyncClock m = new SyncClock();
        LocationState x = new LocationState("pkg.Box.value");
        hb.acquire(a, m);
        detector.write(a, x, writeSite);
        hb.release(a, m);
        hb.acquire(b, m);
        assertFalse(detector.read(b, x, readSite));
        assertFalse(detector.write(b, x, writeSite));
        hb.release(b, m);
        assertFalse(detector.inSummary(a, x), "a did not acquire after b's write");
        hb.acquire(a, m);
        assertFalse(detector.read(a, x, readSite));
        assertEquals(List.of(), reports);
    }

    @Test
    void aWriteAfterTheReleaseIsNotPublishedByIt() {
        ThreadState a = hb.newThread("a");
        ThreadState b = hb.newThread("b");
        SyncClock v = new SyncClock();
        LocationState x = new LocationState("pkg.Box.value");
        hb.release(a, v);
        detector.write(a, x, writeSite);
        hb.acquire(b, v);
        assertTrue(detector.read(b, x, readSite));
    }

    @Test
    void forkAndJoinOrderParentAndChild() {
        ThreadState main = hb.newThread("main");
        LocationState x = new LocationState("pkg.Box.value");
        detector.write(main, x, writeSite);
        ThreadState child = hb.newThread("child");
        hb.fork(main, child);
        assertFalse(detector.read(child, x, readSite));
        assertFalse(detector.write(child, x, writeSite));
        assertTrue(detector.read(main, x, readSite), "main has not joined the child yet");
        hb.join(main, child);
        assertFalse(detector.read(main, x, readSite));
    }

    @Test
    void clinitWritesAreRecordedAtBottom() {
        ThreadState init = hb.newThread("init");
        ThreadState other = hb.newThread("other");
        LocationState x = new LocationState("pkg.Config.INSTANCE");
        detector.write(other, x, writeSite);
        init.enterClinit();
        assertFalse(detector.write(init, x, writeSite), "not checked inside <clinit>");
        init.exitClinit();
        assertTrue(detector.inSummary(other, x));
        assertFalse(detector.read(other, x, readSite));
        assertFalse(detector.read(hb.newThread("late"), x, readSite));
        assertEquals(List.of(), reports);
    }

    @Test
    void instantiateGivesTheLocationToTheCreatorOnly() {
        ThreadState a = hb.newThread("a");
        ThreadState b = hb.newThread("b");
        LocationState x = new LocationState("pkg.Box.value");
        detector.instantiate(a, x);
        assertTrue(detector.inSummary(a, x));
        assertFalse(detector.inSummary(b, x));
    }

    @Test
    void repeatedWritesInOneEpochReportTheLatestSite() {
        ThreadState a = hb.newThread("a");
        ThreadState b = hb.newThread("b");
        LocationState x = new LocationState("pkg.Box.value");
        int otherWrite = sites.register("pkg.Box", "reset", "Box.java", 30);
        detector.write(a, x, writeSite);
        detector.write(a, x, writeSite);
        detector.write(a, x, otherWrite);
        detector.read(b, x, readSite);
        assertEquals(new Site("pkg.Box", "reset", "Box.java", 30), reports.get(0).previous().site());
    }

    /** After a release the thread's writes are at a new epoch: the cached record of the old one is not reused. */
    @Test
    void aWriteAfterAReleaseIsRecordedAtTheNewEpoch() {
        ThreadState a = hb.newThread("a");
        ThreadState b = hb.newThread("b");
        SyncClock lock = new SyncClock();
        LocationState x = new LocationState("pkg.Box.value");
        LocationState y = new LocationState("pkg.Box.other");
        detector.write(a, x, writeSite);
        hb.release(a, lock);
        detector.write(a, y, writeSite);
        hb.acquire(b, lock);
        assertFalse(detector.write(b, x, writeSite));
        assertTrue(detector.write(b, y, writeSite));
        assertEquals(1, reports.size());
    }

    /**
     * The lock-free write protocol under real concurrency: two unordered writes of one location, started together,
     * always give exactly one WW, and its previous access is the other thread's write (name and site of one record).
     */
    @Test
    void twoConcurrentUnorderedWritesAlwaysGiveOneWw() throws Exception {
        int aSite = sites.register("pkg.Box", "a", "Box.java", 40);
        int bSite = sites.register("pkg.Box", "b", "Box.java", 41);
        for (int round = 0; round < 2000; round++) {
            reports.clear();
            ThreadState a = hb.newThread("a");
            ThreadState b = hb.newThread("b");
            LocationState x = new LocationState("pkg.Box.value");
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
            Thread other = new Thread(() -> {
                await(start);
                detector.write(b, x, bSite);
            });
            other.start();
            await(start);
            detector.write(a, x, aSite);
            other.join();
            assertEquals(1, reports.size(), "round " + round);
            RaceReport r = reports.get(0);
            assertEquals(RaceKind.WW, r.kind());
            boolean aLast = r.current().threadName().equals("a");
            assertEquals(aLast ? "b" : "a", r.previous().threadName());
            assertEquals(sites.site(aLast ? bSite : aSite), r.previous().site());
            assertEquals(sites.site(aLast ? aSite : bSite), r.current().site());
        }
    }

    private static void await(java.util.concurrent.CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aThrowingSinkNeverReachesTheProgram() {
        HSummaryDetector failing = new HSummaryDetector(sites, r -> {
            throw new IllegalStateException("sink broke");
        });
        ThreadState a = hb.newThread("a");
        ThreadState b = hb.newThread("b");
        LocationState x = new LocationState("pkg.Box.value");
        failing.write(a, x, writeSite);
        assertTrue(failing.read(b, x, readSite));
        assertEquals(1, failing.internalErrors());
        assertEquals(1, failing.raceCount());
    }

    @Test
    void unknownSitesStillGiveAWellFormedReport() {
        ThreadState a = hb.newThread("a");
        ThreadState b = hb.newThread("b");
        LocationState x = new LocationState("pkg.Box.value");
        detector.write(a, x, -1);
        detector.read(b, x, 9999);
        assertEquals(Site.UNKNOWN, reports.get(0).current().site());
        assertEquals(Site.UNKNOWN, reports.get(0).previous().site());
    }

    /**
     * Real threads: each worker does many lock-protected read-modify-writes of one shared location and many writes to
     * its own location, telling the engine about each lock operation. No race may be reported, whatever the
     * interleaving; then an unsynchronised write by a worker after a join is a race for nobody but a reader that did
     * not join.
     */
    @Test
    void concurrentLockedAccessesReportNoRace() throws InterruptedException {
        ThreadState main = hb.newThread("main");
        SyncClock lockClock = new SyncClock();
        Object lock = new Object();
        LocationState shared = new LocationState("pkg.Counter.count");
        int workers = 4;
        List<Thread> threads = new ArrayList<>();
        List<ThreadState> states = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            ThreadState s = hb.newThread("w" + i);
            LocationState own = new LocationState("pkg.Worker.local" + i);
            hb.fork(main, s);
            states.add(s);
            Thread t = new Thread(() -> {
                for (int r = 0; r < 5000; r++) {
                    detector.write(s, own, writeSite);
                    synchronized (lock) {
                        hb.acquire(s, lockClock);
                        detector.read(s, shared, readSite);
                        detector.write(s, shared, writeSite);
                        hb.release(s, lockClock);
                    }
                }
            });
            threads.add(t);
            t.start();
        }
        for (int i = 0; i < workers; i++) {
            threads.get(i).join();
            hb.join(main, states.get(i));
        }
        assertEquals(List.of(), reports);
        assertFalse(detector.read(main, shared, readSite));
    }

    /**
     * Real threads writing one location with no synchronisation the engine knows of: whatever the interleaving, the
     * later of two unordered writes must find the earlier one (WW), because writes check-and-set under the
     * location's monitor. Each of the 2 writers writes once, so exactly one WW is reported.
     */
    @Test
    void concurrentUnorderedWritesAlwaysReportOneWw() throws InterruptedException {
        for (int round = 0; round < 200; round++) {
            reports.clear();
            ThreadState a = hb.newThread("a");
            ThreadState b = hb.newThread("b");
            LocationState x = new LocationState("pkg.Box.value");
            Thread ta = new Thread(() -> detector.write(a, x, writeSite));
            Thread tb = new Thread(() -> detector.write(b, x, writeSite));
            ta.start();
            tb.start();
            ta.join();
            tb.join();
            assertEquals(1, reports.size(), "round " + round);
            assertEquals(RaceKind.WW, reports.get(0).kind());
        }
    }
}
