package dev.racetriage.agent.trace;

import dev.racetriage.agent.jumble.JumbleConfig;
import dev.racetriage.agent.jumble.ReadHeuristic;
import dev.racetriage.agent.jumble.ReadHeuristics;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * On random traces, under every heuristic and with the paper's bound (32) and a tiny one (3, so GC1 and REMOVE OLDEST
 * run all the time): every value adversarial memory serves is allowed by the READ rule of an uncompressed, independent
 * Operational PJMM ({@link PjmmSpec}) — for a wide location, each 32-bit half comes from a visible write — and
 * {@code sc} always serves the latest write. Every third location is wide; its writes use both halves.
 */
class JumbleReadRulePropertyTest {
    private static final int TRACES = 300;

    @Test
    void everyServedValueIsAllowedByTheReadRule() {
        for (ReadHeuristic heuristic : ReadHeuristics.all()) {
            for (int bound : new int[]{JumbleConfig.DEFAULT_BOUND, 3}) {
                check(heuristic, bound);
            }
        }
    }

    private static void check(ReadHeuristic heuristic, int bound) {
        RandomTraces gen = new RandomTraces(0xBEEF + bound, 5, 2, 2, 150, 4);
        long reads = 0;
        long stale = 0;
        long torn = 0;
        for (int n = 0; n < TRACES; n++) {
            Trace trace = widen(gen.next());
            Set<Integer> wide = wideLocations(trace);
            JumbleRun run = new JumbleRun(new JumbleConfig(heuristic, n, bound, 4, true), wide);
            trace.run(run);
            Map<Integer, JumbleRun.ServedRead> served = new HashMap<>();
            for (JumbleRun.ServedRead r : run.served()) {
                served.put(r.eventIndex(), r);
            }
            PjmmSpec spec = new PjmmSpec();
            for (int i = 0; i < trace.events().size(); i++) {
                Event e = trace.events().get(i);
                if (e instanceof Event.Read rd) {
                    JumbleRun.ServedRead got = served.get(i);
                    List<PjmmSpec.Entry> vis = spec.visible(rd.thread(), rd.location());
                    long latest = spec.latest(rd.location());
                    String where = heuristic.name() + " bound " + bound + " trace " + n + " event " + i + ": served "
                            + Long.toHexString(got.value()) + " from " + got.buffer() + "; allowed " + values(vis);
                    if (!allowed(got.value(), vis, wide.contains(rd.location()))) {
                        fail(where + "\n" + trace);
                    }
                    if (heuristic.sequentiallyConsistent()) {
                        assertEquals(latest, got.value(), where);
                    }
                    reads++;
                    if (got.value() != latest) {
                        stale++;
                    }
                    if (!values(vis).contains(got.value())) {
                        torn++;
                    }
                }
                spec.apply(e);
            }
        }
        System.out.printf("%s bound %d: %d reads, %d stale, %d torn%n", heuristic.name(), bound, reads, stale, torn);
        assertTrue(reads > 1000, "reads " + reads);
        if (!heuristic.sequentiallyConsistent()) {
            // the traces mostly synchronise, so stale choices are rare; they must exist for the check to mean much
            assertTrue(stale > 20, heuristic.name() + ": only " + stale + " stale of " + reads);
            assertTrue(torn > 0, heuristic.name() + ": no torn wide read");
        } else {
            assertEquals(0, stale);
        }
    }

    /**
     * The lock-free fast path (a read with nothing to choose from, and every {@code sc} read) serves exactly what the
     * locked slow path serves, read by read, and leaves the same stale counts — on the same random traces, under every
     * heuristic and both bounds. Under the adversarial heuristics most reads of these traces have no choice, so the
     * fast path is taken often; it must be for the comparison to mean much.
     */
    @Test
    void theFastPathServesExactlyWhatTheSlowPathServes() {
        for (ReadHeuristic heuristic : ReadHeuristics.all()) {
            for (int bound : new int[]{JumbleConfig.DEFAULT_BOUND, 3}) {
                RandomTraces gen = new RandomTraces(0xFA57 + bound, 5, 2, 2, 150, 4);
                long fastReads = 0;
                long allReads = 0;
                for (int n = 0; n < TRACES; n++) {
                    Trace trace = widen(gen.next());
                    Set<Integer> wide = wideLocations(trace);
                    JumbleRun fast = new JumbleRun(new JumbleConfig(heuristic, n, bound, 4, true), wide);
                    JumbleRun slow = new JumbleRun(new JumbleConfig(heuristic, n, bound, 4, true), wide).slowPathOnly();
                    trace.run(fast);
                    trace.run(slow);
                    List<JumbleRun.ServedRead> a = fast.served();
                    List<JumbleRun.ServedRead> b = slow.served();
                    assertEquals(b.size(), a.size());
                    int traceNo = n;
                    for (int i = 0; i < a.size(); i++) {
                        int at = i;
                        assertEquals(b.get(i).value(), a.get(i).value(), () -> heuristic.name() + " bound " + bound
                                + " trace " + traceNo + " event " + a.get(at).eventIndex() + ": fast path served "
                                + Long.toHexString(a.get(at).value()) + ", slow path " + Long.toHexString(b.get(at).value())
                                + " from " + b.get(at).buffer() + "\n" + trace);
                    }
                    for (int i = 0; i < fast.memory().stats().size(); i++) {
                        var f = fast.memory().stats().get(i);
                        var s = slow.memory().stats().get(i);
                        assertEquals(s.reads(), f.reads());
                        assertEquals(s.staleReads(), f.staleReads());
                        if (!heuristic.sequentiallyConsistent()) {
                            assertEquals(s.readsWithChoice(), f.readsWithChoice());
                        }
                        allReads += f.reads();
                        fastReads += f.reads() - (heuristic.sequentiallyConsistent() ? 0 : f.readsWithChoice());
                    }
                }
                assertTrue(allReads > 1000 && fastReads > allReads / 10,
                        heuristic.name() + ": the fast path must be exercised (" + fastReads + " of " + allReads + ")");
            }
        }
    }

    private static boolean allowed(long v, List<PjmmSpec.Entry> visible, boolean wide) {
        if (!wide) {
            return values(visible).contains(v);
        }
        boolean top = false;
        boolean bottom = false;
        for (PjmmSpec.Entry e : visible) {
            top |= (e.value() >>> 32) == (v >>> 32);
            bottom |= (e.value() & 0xFFFF_FFFFL) == (v & 0xFFFF_FFFFL);
        }
        return top && bottom;
    }

    private static Set<Long> values(List<PjmmSpec.Entry> entries) {
        Set<Long> out = new HashSet<>();
        for (PjmmSpec.Entry e : entries) {
            out.add(e.value());
        }
        return out;
    }

    private static Set<Integer> wideLocations(Trace trace) {
        Set<Integer> wide = new HashSet<>();
        for (Event e : trace.events()) {
            if (e instanceof Event.Read r && r.location() % 3 == 0) {
                wide.add(r.location());
            }
            if (e instanceof Event.Write w && w.location() % 3 == 0) {
                wide.add(w.location());
            }
        }
        return wide;
    }

    /** Values v of wide locations become v·(2^32 + 1) + distinct halves, so a torn read is recognisable. */
    private static Trace widen(Trace t) {
        List<Event> out = new ArrayList<>();
        for (Event e : t.events()) {
            if (e instanceof Event.Write w && w.location() % 3 == 0) {
                out.add(new Event.Write(w.thread(), w.location(), spread(w.value())));
            } else if (e instanceof Event.ClinitWrite c && c.location() % 3 == 0) {
                out.add(new Event.ClinitWrite(c.thread(), c.location(), spread(c.value())));
            } else {
                out.add(e);
            }
        }
        return new Trace(out);
    }

    private static long spread(long v) {
        return ((v + 1) << 32) | (v + 101);
    }
}
