package dev.racetriage.agent.detect;

import jdk.internal.vm.annotation.DontInline;

import dev.racetriage.agent.hb.Epoch;
import dev.racetriage.agent.hb.ThreadState;

/**
 * The h-summary of Java RaceFinder (Figure 1) in its fast runtime form. Instead of a set h(t) per thread, each
 * location keeps the epoch of its last write, and
 *
 * <pre>  x ∈ h(t)  ⇔  lastWrite(x) ⊑ C(t)   (clock(e) ≤ C(t)(tid(e)), an O(1) test)</pre>
 *
 * The rules of Figure 1 then fall out of the vector clocks of {@link dev.racetriage.agent.hb.HappensBefore}:
 * release/acquire/start/join move clocks and with them every location whose last write they cover; a write by t
 * (invalidate) sets lastWrite(x) := C(t)(t)@t, which only t covers until t's next release, because every transfer
 * of t's clock is followed by a tick of t (RELEASE, FORK and JOIN all tick); instantiate would set lastWrite to the
 * creator's epoch, and locations nobody hooked stay at ⊥, which everyone covers. A read or write by t of an x with
 * x ∉ h(t) is a race: WR for a read, WW for a write ({@link RaceKind}).
 *
 * <p><b>Concurrency.</b> Many program threads call in at once. A thread only reads its own clock. The location's
 * {@code lastWrite} is volatile; its three fields are only written together under the location's lock (a bit of
 * {@code lastWrite}, see {@link LocationState}).
 * <ul>
 * <li>read: one volatile read and one array read; if the epoch is covered there is no race, whatever writes are in
 * flight — the read is linearised before them, and a read followed by an unordered write is an RW race, which
 * h does not report. (The instrumentation calls the read check after the program's load, so a write whose value
 * the load returned has always been recorded before the check: linearising the read there never hides it.) If it is not covered, the check is repeated under the lock (linearising the read after the
 * newest completed write) and only then reported, with the site and writer that belong to that very epoch; so a
 * report never pairs an epoch with another write's site, and a write completed meanwhile that t does cover clears
 * the read.</li>
 * <li>write: check-and-set under the lock, so two concurrent unordered writes cannot both pass the check (the
 * second to take the lock sees the first's epoch and reports WW). The only unlocked shortcut is a repeated write
 * by the same thread in the same epoch from the same site, which changes nothing.</li>
 * </ul>
 * Neither path can report a race that the h-summary of the linearised trace would not report: every report is
 * decided on a value read under the lock that the write it names really stored.
 *
 * <p>Never throws into the program: a failing sink is swallowed and counted ({@link #internalErrors()}).
 */
public final class HSummaryDetector {
    private final SiteTable sites;
    private final RaceSink sink;
    private final StackCapture stacks;
    private final Object counterLock = new Object();
    private long races;
    private long internalErrors;

    public HSummaryDetector(SiteTable sites, RaceSink sink, StackCapture stacks) {
        this.sites = sites;
        this.sink = sink;
        this.stacks = stacks;
    }

    public HSummaryDetector(SiteTable sites, RaceSink sink) {
        this(sites, sink, StackCapture.defaults());
    }

    /** norace(x, t) = x ∈ h(t), without side effects. */
    public boolean inSummary(ThreadState t, LocationState x) {
        return t.clock().covers(x.epoch());
    }

    /**
     * Read of non-volatile x by t at a site: reports a WR race unless x ∈ h(t). Reads change nothing (Figure 1).
     *
     * @return true iff a race was reported
     */
    public boolean read(ThreadState t, LocationState x, int siteId) {
        return read(t, x, siteId, RaceReport.NO_INDEX);
    }

    /**
     * {@link #read} of array element {@code index} (or {@link RaceReport#NO_INDEX}): the index only travels to a race
     * report, so the shadow state of an element need not store it.
     */
    public boolean read(ThreadState t, LocationState x, int siteId, int index) {
        return !t.clock().covers(x.epoch()) && uncoveredRead(t, x, siteId, index);
    }

    /** The read's slow path, kept out of {@link #read} so the inlined fast path stays small. */
    @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
    private boolean uncoveredRead(ThreadState t, LocationState x, int siteId, int index) {
        long last = x.lock();
        int previousSite = x.lastSite;
        String previousWriter = x.lastWriter;
        x.lastWrite = last; // releases the lock: a store, never a call (LocationState#lock)
        if (t.clock().covers(last)) {
            return false;
        }
        report(RaceKind.WR, t, x.fieldKey(), siteId, previousSite, previousWriter, index);
        return true;
    }

    /**
     * Write of non-volatile x by t at a site: reports a WW race unless x ∈ h(t); then invalidate — x leaves every
     * h(z), z ≠ t, and stays in h(t) — by recording t's current epoch. Inside a class initialiser the write is
     * recorded at ⊥ and not checked (class initialisation happens-before every use of the class).
     *
     * @return true iff a race was reported
     */
    public boolean write(ThreadState t, LocationState x, int siteId) {
        return write(t, x, siteId, RaceReport.NO_INDEX);
    }

    /** {@link #write} of array element {@code index} (or {@link RaceReport#NO_INDEX}), named in a race report. */
    public boolean write(ThreadState t, LocationState x, int siteId, int index) {
        if (repeats(x, t.epoch(), siteId) && !t.inClinit()) {
            return false; // the thread's same write again: changes nothing
        }
        return recordWrite(t, x, siteId, index);
    }

    /** True if x's last write is already epoch {@code now} at {@code siteId}: the same write again changes nothing. */
    private static boolean repeats(LocationState x, long now, int siteId) {
        return x.repeats(now, siteId);
    }

    /** The write's slow path, kept out of {@link #write} so the inlined fast path stays small. */
    @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
    private boolean recordWrite(ThreadState t, LocationState x, int siteId, int index) {
        if (t.inClinit()) {
            clinitWrite(t, x, siteId);
            return false;
        }
        long now = t.epoch();
        String name = t.name();
        long seen = x.lastWrite;
        if (seen >= 0 && Epoch.tid(seen) == t.tid() && x.lastSite == siteId && x.lastWriter == name
                && x.advance(seen, now)) {
            return false; // t's own write again from the same site, one epoch on: never a race (see write)
        }
        long last = x.lock();
        int previousSite = x.lastSite;
        String previousWriter = x.lastWriter;
        x.lastSite = siteId;
        if (previousWriter != name) { // most writes repeat the writer: no reference store, no GC barrier
            x.lastWriter = name;
        }
        x.lastWrite = now; // releases the lock
        if (t.clock().covers(last)) {
            return false;
        }
        report(RaceKind.WW, t, x.fieldKey(), siteId, previousSite, previousWriter, index);
        return true;
    }

    /**
     * Reports a WR race: t read a location whose last write, which t does not cover, the runtime keeps outside a
     * {@link LocationState} (an array element: the runtime's flat element records apply the rules of {@link #read} and
     * {@link #write} themselves) — by {@code writer} at {@code previousSite}.
     */
    public void reportRead(ThreadState t, String fieldKey, int siteId, int previousSite, String writer, int index) {
        report(RaceKind.WR, t, fieldKey, siteId, previousSite, writer, index);
    }

    /** Reports a WW race, as {@link #reportRead} a WR one: t's write of a location whose last write it does not cover. */
    public void reportWrite(ThreadState t, String fieldKey, int siteId, int previousSite, String writer, int index) {
        report(RaceKind.WW, t, fieldKey, siteId, previousSite, writer, index);
    }

    /**
     * A write performed while t runs a class initialiser, or any write the runtime knows to be ordered before every
     * later access: x is recorded at ⊥, i.e. put into every h(z) (JRF §5.3, h(static_initializer)).
     */
    public void clinitWrite(ThreadState t, LocationState x, int siteId) {
        set(x, Epoch.BOTTOM, siteId, t.name());
    }

    private static void set(LocationState x, long epoch, int siteId, String writer) {
        x.lock();
        x.lastSite = siteId;
        x.lastWriter = writer;
        x.lastWrite = epoch; // releases the lock
    }

    /**
     * instantiate(t, fields): the location of a newly created object belongs to h(t) only. The runtime does not call
     * this (an unhooked location is at ⊥, which can only hide races, never invent one); traces do.
     */
    public void instantiate(ThreadState t, LocationState x) {
        set(x, t.epoch(), -1, t.name());
    }

    /**
     * Races reported to the sink whole so far; repeats a sink absorbed ({@link RaceSink#absorbed}) are counted by it
     * ({@code RaceAggregator.totalReports}).
     */
    public long raceCount() {
        synchronized (counterLock) {
            return races;
        }
    }

    /** Exceptions thrown by the sink or while building a report, swallowed so the program never sees them. */
    public long internalErrors() {
        synchronized (counterLock) {
            return internalErrors;
        }
    }

    /**
     * Reports a race that happens-before orders but WCP does not (predict=true): built whole (predictions are rare and
     * the tally is the happens-before path's) and handed to {@link RaceSink#predicted}.
     */
    @DontInline
    public void reportPredicted(RaceKind kind, ThreadState t, String fieldKey, int siteId, int previousSite,
                                String previousWriter, int index, String witness) {
        try {
            java.util.List<StackTraceElement> stack = sink.wantsStack(fieldKey) ? stacks.capture()
                    : java.util.List.of();
            Access current = new Access(t.name(), sites.site(siteId), stack);
            Access previous = new Access(previousWriter == null ? "?" : previousWriter,
                    sites.site(previousSite), java.util.List.of());
            sink.predicted(new RaceReport(fieldKey, kind, current, previous, index), witness);
        } catch (Throwable e) {
            synchronized (counterLock) {
                internalErrors++;
            }
        }
    }

    @DontInline // a slow path: compiled once, not into every hot caller (see Hooks)
    private void report(RaceKind kind, ThreadState t, String fieldKey, int siteId, int previousSite,
                        String previousWriter, int index) {
        try {
            if (sink.absorbed(fieldKey, kind, siteId, previousSite, index, t.tid())) {
                return; // a repeat that adds nothing: counted by the sink, nothing built
            }
            synchronized (counterLock) {
                races++;
            }
            java.util.List<StackTraceElement> stack = sink.wantsStack(fieldKey) ? stacks.capture()
                    : java.util.List.of();
            Access current = new Access(t.name(), sites.site(siteId), stack);
            Access previous = new Access(previousWriter == null ? "?" : previousWriter,
                    sites.site(previousSite), java.util.List.of());
            sink.race(new RaceReport(fieldKey, kind, current, previous, index), siteId, previousSite);
        } catch (Throwable e) {
            synchronized (counterLock) {
                internalErrors++;
            }
        }
    }
}
