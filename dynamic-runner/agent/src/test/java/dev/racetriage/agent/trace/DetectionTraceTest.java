package dev.racetriage.agent.trace;

import dev.racetriage.agent.detect.RaceKind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Hand-written traces through both detectors, with the races the papers say they have. */
class DetectionTraceTest {
    private static final int X = 0;
    private static final int M = 100;

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
        Trace t = Trace.builder()
                .newObject(0, X, 1)
                .acq(0, M).wr(0, X, 13).wr(0, X, 42).rel(0, M)
                .rd(1, X)
                .acq(1, M).rd(1, X)
                .build();
        assertBoth(t, List.of(new TraceRace(5, X, RaceKind.WR)));
    }

    /** JUMBLE Figure 1, racy initialisation: the reads of x by thread 2 race with the write by thread 1. */
    @Test
    void racyInitialisation() {
        Trace t = Trace.builder()
                .clinitWr(0, X, 0)
                .fork(0, 1).fork(0, 2)
                .wr(1, X, 1)
                .rd(2, X).rd(2, X)
                .build();
        assertBoth(t, List.of(new TraceRace(4, X, RaceKind.WR), new TraceRace(5, X, RaceKind.WR)));
    }

    /** A read followed by an unordered write is an RW race, which h does not report (JRF Theorem 2). */
    @Test
    void readThenWriteIsNotReported() {
        Trace t = Trace.builder()
                .newObject(0, X, 1)
                .fork(0, 1).fork(0, 2)
                .rd(1, X)
                .wr(2, X, 1)
                .build();
        assertBoth(t, List.of());
    }

    /** Two unordered writes: WW; then the first writer's read is WR. */
    @Test
    void writeWriteThenRead() {
        Trace t = Trace.builder()
                .newObject(0, X, 1)
                .fork(0, 1)
                .wr(0, X, 1)
                .wr(1, X, 2)
                .rd(0, X)
                .join(0, 1)
                .rd(0, X)
                .build();
        assertBoth(t, List.of(new TraceRace(3, X, RaceKind.WW), new TraceRace(4, X, RaceKind.WR)));
    }

    /** Volatile publication (JRF §6.2 "Simple"): result written before the volatile write is safely read after. */
    @Test
    void volatilePublication() {
        Trace t = Trace.builder()
                .newObject(0, X, 1)
                .fork(0, 1)
                .wr(0, X, 1).vwr(0, 200)
                .vrd(1, 200).rd(1, X)
                .build();
        assertBoth(t, List.of());
    }
}
