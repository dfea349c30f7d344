package dev.racetriage.agent.detect;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counts, without a lock or an allocation, the race reports that would add nothing to their field's aggregate: the
 * same field, kind, racing site and earlier site as a report the {@link RaceAggregator} already took whole, in the
 * same test, at an index it already holds (or once its index sets are full). A location that keeps racing — a racy
 * array swept by a loop, 33 million reports a run in LU factorisation — then costs a table probe and an add per
 * report instead of two monitors, a site lookup and four objects.
 *
 * <p>A pair is registered by the aggregator, under its monitor, after it took a report whole; lookups are lock-free
 * (the table is filled by compare-and-set and never emptied). Counts are added to per-thread stripes, so threads
 * racing on one location do not contend on a counter; the aggregator drains them into its totals whenever it is
 * read. Not {@code java.util.concurrent}: the sink runs inside the agent's hooks.
 */
final class RaceTally {
    /** Slots of the table; a pair that finds it full is simply not absorbed (the slow path stays right). */
    private static final int SLOTS = 1024;
    /** Counter stripes per pair, each on its own cache line (8 longs). */
    private static final int STRIPES = 8;
    private static final int PAD = 8;
    private static final VarHandle TABLE = MethodHandles.arrayElementVarHandle(Pair[].class);
    private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);

    /** One (field, kind, site, earlier site) the aggregator has taken whole. */
    static final class Pair {
        final String fieldKey;
        final RaceKind kind;
        final int site;
        final int previousSite;
        /** Indices the aggregator holds for this field and kind, as this pair saw them; replaced, never mutated. */
        volatile int[] indices = new int[0];
        /** The aggregator's index set for this field and kind is full: no index can add anything. */
        volatile boolean indicesFull;
        /** The test the field's aggregate already lists this pair's reports under (null: between tests). */
        volatile String test;
        final long[] counts = new long[STRIPES * PAD];

        Pair(String fieldKey, RaceKind kind, int site, int previousSite) {
            this.fieldKey = fieldKey;
            this.kind = kind;
            this.site = site;
            this.previousSite = previousSite;
        }

        boolean holds(int index) {
            if (index == RaceReport.NO_INDEX || indicesFull) {
                return true;
            }
            for (int known : indices) {
                if (known == index) {
                    return true;
                }
            }
            return false;
        }

        /** Takes the counts added since the last drain. */
        long drain() {
            long n = 0;
            for (int s = 0; s < STRIPES; s++) {
                n += (long) COUNTS.getAndSet(counts, s * PAD, 0L);
            }
            return n;
        }
    }

    private final Pair[] table = new Pair[SLOTS];

    private static int slot(String fieldKey, RaceKind kind, int site, int previousSite) {
        int h = fieldKey.hashCode() * 31 + kind.ordinal(); // String caches its hash
        h = (h * 31 + site) * 31 + previousSite;
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }

    /**
     * Counts the report if its pair is known and it adds nothing ({@code test}: the test running now); false if the
     * aggregator must take it whole.
     */
    boolean absorb(String fieldKey, RaceKind kind, int site, int previousSite, int index, String test, long tid) {
        for (int i = slot(fieldKey, kind, site, previousSite), probes = 0; probes < 8; i = (i + 1) & (SLOTS - 1),
                probes++) {
            Pair p = (Pair) TABLE.getAcquire(table, i);
            if (p == null) {
                return false;
            }
            if (p.site == site && p.previousSite == previousSite && p.kind == kind && p.fieldKey.equals(fieldKey)) {
                if (p.test != test || !p.holds(index)) {
                    return false;
                }
                COUNTS.getAndAdd(p.counts, (int) (tid & (STRIPES - 1)) * PAD, 1L);
                return true;
            }
        }
        return false;
    }

    /** The pair of a report the aggregator just took whole (called under its monitor), created if new. */
    Pair pair(String fieldKey, RaceKind kind, int site, int previousSite) {
        for (int i = slot(fieldKey, kind, site, previousSite), probes = 0; probes < 8; i = (i + 1) & (SLOTS - 1),
                probes++) {
            Pair p = (Pair) TABLE.getAcquire(table, i);
            if (p == null) {
                Pair fresh = new Pair(fieldKey, kind, site, previousSite);
                if (TABLE.compareAndSet(table, i, null, fresh)) {
                    return fresh;
                }
                p = (Pair) TABLE.getAcquire(table, i);
            }
            if (p.site == site && p.previousSite == previousSite && p.kind == kind && p.fieldKey.equals(fieldKey)) {
                return p;
            }
        }
        return null; // the neighbourhood is full: this pair's reports all take the slow path
    }

    /** Drains every pair's counts into {@code sink}, per field and kind. */
    void drainInto(Drain sink) {
        for (Pair p : table) {
            if (p != null) {
                long n = p.drain();
                if (n > 0) {
                    sink.add(p.fieldKey, p.kind, n);
                }
            }
        }
    }

    /** Where {@link #drainInto} puts the counts. */
    interface Drain {
        void add(String fieldKey, RaceKind kind, long count);
    }
}
