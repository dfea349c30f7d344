package dev.racetriage.agent.trace;

import dev.racetriage.agent.detect.RaceKind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Hand-written traces through both detectors, with the races the papers say they have. */
class DetectionTraceTest {
    /** The location named x in the traces below (the first location name gets id 0). */
    private static final int X = 0;

    private static void assertBoth(Trace trace, List<TraceRace> races) {
        ReferenceDetection reference = new ReferenceDetection();
        FastDetection fast = new FastDetection();
        trace.run(reference);
        trace.run(fast);
        assertEquals(races, reference.races(), "reference");
        assertEquals(races, fast.races(), "fast");
    }

    /** JUMBLE Figure 7: the unlocked read races with the writes (WR); the read after acq(1,m) does not. */
    @Test
    void figure7() {
        Trace t = Trace.parse("new(0,x,1) acq(0,m) wr(0,x,13) wr(0,x,42) rel(0,m) rd(1,x) acq(1,m) rd(1,x)");
        assertBoth(t, List.of(new TraceRace(5, X, RaceKind.WR)));
    }

    /** JUMBLE Figure 1, racy initialisation: the reads of x by thread 2 race with the write by thread 1. */
    @Test
    void racyInitialisation() {
        Trace t = Trace.parse("clinit(0,x,0) fork(0,1) fork(0,2) wr(1,x,1) rd(2,x) rd(2,x)");
        assertBoth(t, List.of(new TraceRace(4, X, RaceKind.WR), new TraceRace(5, X, RaceKind.WR)));
    }

    /** A read followed by an unordered write is an RW race, which h does not report (JRF Theorem 2). */
    @Test
    void readThenWriteIsNotReported() {
        Trace t = Trace.parse("new(0,x,1) fork(0,1) fork(0,2) rd(1,x) wr(2,x,1)");
        assertBoth(t, List.of());
    }

    /** Two unordered writes: WW; then the first writer's read is WR. */
    @Test
    void writeWriteThenRead() {
        Trace t = Trace.parse("new(0,x,1) fork(0,1) wr(0,x,1) wr(1,x,2) rd(0,x) join(0,1) rd(0,x)");
        assertBoth(t, List.of(new TraceRace(3, X, RaceKind.WW), new TraceRace(4, X, RaceKind.WR)));
    }

    /** Volatile publication (JRF §6.2 "Simple"): result written before the volatile write is safely read after. */
    @Test
    void volatilePublication() {
        Trace t = Trace.parse("new(0,x,1) fork(0,1) wr(0,x,1) vwr(0,done) vrd(1,done) rd(1,x)");
        assertBoth(t, List.of());
    }

    /**
     * Races behind the cover-epoch shortcut of acquire: thread 0 re-acquires m without a join (it released m last),
     * which must not order thread 1's unlocked write before thread 0's read; and a volatile released by two
     * unordered threads must give a third reader both writes.
     */
    @Test
    void skippedAcquiresDoNotHideRaces() {
        Trace relock = Trace.parse("new(0,x,1) fork(0,1) acq(0,m) rel(0,m) wr(1,x,2) acq(0,m) rd(0,x) rel(0,m)");
        assertBoth(relock, List.of(new TraceRace(6, X, RaceKind.WR)));
        Trace twoReleasers = Trace.parse(
                "new(0,x,1) new(0,y,1) fork(0,1) fork(0,2) wr(0,x,1) vwr(0,v) wr(1,y,1) vwr(1,v) vrd(2,v) rd(2,x) rd(2,y)"
                        + " wr(1,y,2) vrd(0,v) rd(0,y)");
        assertBoth(twoReleasers, List.of(new TraceRace(13, 1, RaceKind.WR)));
    }
}
