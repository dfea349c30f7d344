package dev.racetriage.agent.detect;

import jdk.internal.vm.annotation.DontInline;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * A {@link RaceSink} that folds repeated reports of one field into a {@link FieldRaces}: a racy field in a loop is
 * reported once per racy access, and the report file must stay small. Thread-safe by one monitor (reports are
 * rare compared to accesses). Memory is bounded per field by {@link #MAX_PAIRS}.
 *
 * <p>The report is streamed while the program runs ({@code ReportStream}): each field remembers whether its report line
 * is out of date, so a flush writes only the fields that changed and a flush with nothing new costs one monitor.
 * The monitor is the agent's own (its classes are never instrumented): taking it orders no program threads.
 */
public final class RaceAggregator implements RaceSink {
    /** Distinct site pairs kept per field; more are counted but not listed. */
    public static final int MAX_PAIRS = 32;
    /** Distinct tests kept per field. */
    public static final int MAX_TESTS = 64;
    /**
     * Distinct racing array indices kept per array key (per kind while running, this many in the report): enough to
     * choose the elements a trial jumbles, small enough that a racy loop over a big array costs a short scan.
     */
    public static final int MAX_INDICES = 32;

    private final Map<String, Entry> byField = new LinkedHashMap<>();
    /** Reports counted without being built (see {@link RaceTally}), drained into the entries whenever they are read. */
    private final RaceTally tally = new RaceTally();
    private long total;
    /** Some field's line is out of date beyond its counts (see {@link #unreported}). */
    private boolean anyStale;
    /** The test running now, as the runtime's test-launcher glue reports it; null between tests. */
    private volatile String currentTest;

    /**
     * The test launcher started a test ({@code pkg.FooTest#method()} or any stable id): races from now on are
     * attributed to it, so the runner replays only the tests in which a field raced. Tests of one JVM run one at a
     * time; a race on a thread that outlives its test is attributed to the test running when it is reported.
     */
    public void testStarted(String testId) {
        currentTest = testId;
    }

    /** The test running now; null between tests (or in a program the launcher does not run). */
    public String currentTest() {
        return currentTest;
    }

    /** The test finished: races until the next {@link #testStarted} belong to no test. */
    public void testFinished() {
        currentTest = null;
    }

    @Override
    public void race(RaceReport report) {
        race(report, NO_SITE, NO_SITE);
    }

    /** No site id: the report's pair is not registered with the tally (every repeat is taken whole). */
    private static final int NO_SITE = Integer.MIN_VALUE;

    @Override
    @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
    public synchronized void race(RaceReport report, int site, int previousSite) {
        add(report, site, previousSite, null);
    }

    /**
     * A predicted race (see {@link RaceSink#predicted}): folded like any other; the field stays {@code predicted}
     * while no happens-before race was reported on it, and keeps the first witness.
     */
    @Override
    public synchronized void predicted(RaceReport report, String witness) {
        add(report, NO_SITE, NO_SITE, witness);
    }

    private void add(RaceReport report, int site, int previousSite, String witness) {
        total++;
        // No lambdas or record hashCodes bootstrapped here: this runs on a program thread, and invokedynamic
        // bootstrapping would call into java.lang.invoke (and j.u.c) from inside the agent.
        Entry e = byField.get(report.fieldKey());
        boolean grew = e == null;
        if (e == null) {
            e = new Entry(report);
            byField.put(report.fieldKey(), e);
        }
        e.count++;
        if (witness == null && !e.observed) {
            e.observed = true; // a happens-before race: the field is no longer only predicted
            grew |= e.count > 1;
        } else if (witness != null && e.witness == null) {
            e.witness = witness;
            grew = true;
        }
        Long before = e.byKind.get(report.kind());
        e.byKind.put(report.kind(), before == null ? 1L : before + 1);
        String test = currentTest;
        if (test != null && e.tests.size() < MAX_TESTS) {
            grew |= e.tests.add(test);
        }
        FieldRaces.SitePair pair = new FieldRaces.SitePair(report.kind(), report.current().site(),
                report.previous().site());
        if (e.pairs.size() < MAX_PAIRS) {
            grew |= e.pairs.add(pair);
        } else if (!e.truncated && !e.pairs.contains(pair)) {
            e.truncated = true;
            grew = true;
        }
        BoundedIndexSet indices = report.kind() == RaceKind.WR ? e.wrIndices : e.wwIndices;
        if (report.index() != RaceReport.NO_INDEX) {
            grew |= indices.add(report.index());
        }
        if (site != NO_SITE) {
            remember(report, site, previousSite, indices, test);
        }
        if (grew) { // a new field, test, site pair or index: what the runner acts on, worth a line before the exit
            e.stale = true;
            anyStale = true;
        }
    }

    /**
     * Registers the report's pair with the tally, so that repeats adding nothing are counted there: its index (if the
     * set took it), whether the set is full, and the test it is now listed under.
     */
    private void remember(RaceReport report, int site, int previousSite, BoundedIndexSet indices, String test) {
        RaceTally.Pair p = tally.pair(report.fieldKey(), report.kind(), site, previousSite);
        if (p == null) {
            return;
        }
        if (indices.truncated() || indices.size() == MAX_INDICES) {
            p.indicesFull = true;
        } else if (report.index() != RaceReport.NO_INDEX && indices.contains(report.index())) {
            int[] known = p.indices;
            boolean has = false;
            for (int k : known) {
                has |= k == report.index();
            }
            if (!has) {
                int[] more = java.util.Arrays.copyOf(known, known.length + 1);
                more[known.length] = report.index();
                p.indices = more;
            }
        }
        p.test = test;
    }

    @Override
    public boolean absorbed(String fieldKey, RaceKind kind, int site, int previousSite, int index, long tid) {
        return tally.absorb(fieldKey, kind, site, previousSite, index, currentTest, tid);
    }

    /** Folds the tally's counts into the entries (under the monitor). */
    private void drainTally() {
        tally.drainInto(drain);
    }

    private final RaceTally.Drain drain = new RaceTally.Drain() { // not a lambda: see race()
        @Override
        public void add(String fieldKey, RaceKind kind, long count) {
            Entry e = byField.get(fieldKey);
            if (e != null) {
                e.count += count;
                Long before = e.byKind.get(kind);
                e.byKind.put(kind, before == null ? count : before + count);
                total += count;
            }
        }
    };

    /** Only the first report of a field is kept whole (with its stack); later ones are counted and paired. */
    @Override
    public synchronized boolean wantsStack(String fieldKey) {
        return !byField.containsKey(fieldKey);
    }

    /** All reports received, repeated ones included. */
    public synchronized long totalReports() {
        drainTally();
        return total;
    }

    /** One aggregate per field key, in the order the fields first raced. */
    public synchronized List<FieldRaces> fields() {
        drainTally();
        List<FieldRaces> out = new ArrayList<>(byField.size());
        for (Entry e : byField.values()) {
            out.add(aggregate(e));
        }
        return out;
    }

    /**
     * The fields whose report line is out of date, in the order they first raced, and marks them up to date: those
     * first raced, or with a new test, site pair or index, since the last call — and with {@code counted}, also those
     * only counted more (the last lines of a run, after which every field's last line is its final state). Its one
     * caller is the report stream.
     */
    public synchronized List<FieldRaces> unreported(boolean counted) {
        if (!anyStale && !counted) {
            return List.of();
        }
        drainTally();
        List<FieldRaces> out = new ArrayList<>();
        for (Entry e : byField.values()) {
            if (e.stale || counted && e.count != e.reportedCount) {
                out.add(aggregate(e));
                e.stale = false;
                e.reportedCount = e.count;
            }
        }
        anyStale = false;
        return out;
    }

    /** The number of fields that raced. */
    public synchronized int fieldCount() {
        return byField.size();
    }

    private static FieldRaces aggregate(Entry e) {
        List<Integer> indices = new ArrayList<>();
        boolean indicesTruncated = e.wrIndices.truncated() || e.wwIndices.truncated();
        for (BoundedIndexSet set : new BoundedIndexSet[] {e.wrIndices, e.wwIndices}) {
            for (int i = 0; i < set.size(); i++) {
                int index = set.get(i);
                if (indices.contains(index)) {
                    continue;
                }
                if (indices.size() < MAX_INDICES) {
                    indices.add(index);
                } else {
                    indicesTruncated = true;
                }
            }
        }
        return new FieldRaces(e.first.fieldKey(), e.count, e.byKind, e.first, new ArrayList<>(e.pairs),
                e.truncated, new ArrayList<>(e.tests), indices, indicesTruncated, !e.observed, e.witness);
    }

    private static final class Entry {
        final RaceReport first;
        final Map<RaceKind, Long> byKind = new EnumMap<>(RaceKind.class);
        final LinkedHashSet<FieldRaces.SitePair> pairs = new LinkedHashSet<>();
        final LinkedHashSet<String> tests = new LinkedHashSet<>();
        /** Indices of WR and of WW races, kept apart so a read's index is never crowded out by many writes'. */
        final BoundedIndexSet wrIndices = new BoundedIndexSet(MAX_INDICES);
        final BoundedIndexSet wwIndices = new BoundedIndexSet(MAX_INDICES);
        long count;
        boolean truncated;
        /** The line last handed to the report stream is out of date beyond its counts. */
        boolean stale;
        /** The count of the line last handed to the report stream. */
        long reportedCount;
        /** A happens-before race was reported (else every report is a prediction). */
        boolean observed;
        /** The first predicted report's witness: which lock order to flip. */
        String witness;

        Entry(RaceReport first) {
            this.first = first;
        }
    }
}
