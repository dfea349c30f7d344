package dev.racetriage.agent.trace;

import dev.racetriage.agent.detect.HSummaryReference;
import dev.racetriage.agent.detect.RaceKind;
import dev.racetriage.agent.hb.SyncClock;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The fast runtime detector (epochs + vector clocks) against the literal bitset h-summary of JRF Figure 1, on
 * thousands of random traces: both must report the same races — same event, same location, same kind — and end with
 * the same h: x ∈ h(t) ⇔ lastWrite(x) ⊑ C(t) for every thread, x ∈ h(s) ⇔ lastWrite(x) ⊑ L(s) for every
 * synchronisation object. Every location is declared before use (see {@link RandomTraces} for why).
 */
class HSummaryEquivalencePropertyTest {
    private static final int TRACES = 3000;
    /** The first traces are compared after every event. */
    private static final int STEPWISE = 200;

    @Test
    void referenceAndFastFormReportTheSameRaces() {
        RandomTraces gen = new RandomTraces(0xC0FFEEL, 5, 2, 2, 120);
        int racyTraces = 0;
        int races = 0;
        int wr = 0;
        int ww = 0;
        for (int n = 0; n < TRACES; n++) {
            Trace trace = gen.next();
            ReferenceDetection reference = new ReferenceDetection();
            FastDetection fast = new FastDetection();
            if (n < STEPWISE) {
                // lockstep: h must agree after every event, not only at the end
                for (int i = 0; i < trace.events().size(); i++) {
                    reference.apply(i, trace.events().get(i));
                    fast.apply(i, trace.events().get(i));
                    assertSameSummary(n, trace, i + 1, reference.summary(), fast);
                }
            } else {
                trace.run(reference);
                trace.run(fast);
            }
            List<TraceRace> expected = reference.races();
            if (!expected.equals(fast.races())) {
                fail("trace " + n + " differs\nreference: " + FastDetection.describe(expected) + "\nfast:      "
                        + FastDetection.describe(fast.races()) + "\n" + trace);
            }
            assertSameSummary(n, trace, trace.events().size(), reference.summary(), fast);
            if (!expected.isEmpty()) {
                racyTraces++;
            }
            races += expected.size();
            for (TraceRace r : expected) {
                if (r.kind() == RaceKind.WR) {
                    wr++;
                } else {
                    ww++;
                }
            }
        }
        System.out.printf("%d traces, %d racy, %d races (WR %d, WW %d)%n", TRACES, racyTraces, races, wr, ww);
        // The generator must exercise both outcomes, or equality would be vacuous.
        assertTrue(racyTraces > TRACES / 10, "racy traces: " + racyTraces);
        assertTrue(racyTraces < TRACES * 9 / 10, "race-free traces: " + (TRACES - racyTraces));
        assertTrue(wr > 0 && ww > 0, "WR " + wr + " WW " + ww);
        assertTrue(races > racyTraces);
    }

    /** Compares h over the threads and locations that appeared in the first {@code prefix} events. */
    private static void assertSameSummary(int n, Trace trace, int prefix, HSummaryReference h, FastDetection fast) {
        int maxLocation = -1;
        int maxThread = -1;
        for (Event e : trace.events().subList(0, prefix)) {
            maxThread = Math.max(maxThread, e.thread());
            if (e instanceof Event.Fork f) {
                maxThread = Math.max(maxThread, f.child());
            }
            if (e instanceof Event.New nw) {
                maxLocation = Math.max(maxLocation, nw.firstLocation() + nw.count() - 1);
            }
            if (e instanceof Event.ClinitWrite c) {
                maxLocation = Math.max(maxLocation, c.location());
            }
        }
        for (int x = 0; x <= maxLocation; x++) {
            long lastWrite = fast.locationState(x).lastWriteEpoch();
            for (int t = 0; t <= maxThread; t++) {
                int tt = t;
                int xx = x;
                assertEquals(h.threadHas(t, x), fast.threads().thread(t).clock().covers(lastWrite),
                        () -> "trace " + n + ": x" + xx + " ∈ h(T" + tt + ")\n" + trace);
            }
            for (int s : new int[]{RandomTraces.LOCK_BASE, RandomTraces.LOCK_BASE + 1, RandomTraces.VOLATILE_BASE, RandomTraces.VOLATILE_BASE + 1}) {
                SyncClock clock = fast.threads().sync(s);
                int xx = x;
                assertEquals(h.syncHas(s, x), clock.snapshot().covers(lastWrite),
                        () -> "trace " + n + ": x" + xx + " ∈ h(s" + s + ")\n" + trace);
            }
        }
    }
}
