package dev.racetriage.agent.detect;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * The literal h-summary of Java RaceFinder (§3.1, Figure 1; bitmap representation of §3.2): the specification the fast
 * {@link HSummaryDetector} is tested against. h maps every thread and every synchronisation object to the set of
 * locations it may access without a WR/WW race; each row is a {@link BitSet} whose bits are location ids.
 *
 * <p>Rows: one per thread, one per synchronisation object (lock or volatile), and the synthetic row of the class
 * initialiser (JRF §5.3, h(static_initializer)): the statics written in {@code <clinit>} and not written since. A row
 * created for a new thread or synchronisation object starts as a copy of that row, which is how statics "reach every
 * thread" (JRF adds release(static_initializer, child) to every thread start; a thread that is not started by another
 * one in the trace — main — starts with the statics, h0(main) = static(P)).
 *
 * <p>Single-threaded (it interprets a trace); ids are small non-negative ints chosen by the trace.
 */
public final class HSummaryReference {
    private final Map<Integer, BitSet> threads = new HashMap<>();
    private final Map<Integer, BitSet> syncs = new HashMap<>();
    private final BitSet staticInitialiser = new BitSet();

    /** h(t), creating the row (as a copy of h(static_initializer)) when thread t first appears. */
    private BitSet thread(int t) {
        return threads.computeIfAbsent(t, k -> (BitSet) staticInitialiser.clone());
    }

    /** h(s) for a synchronisation object; a new one holds only the statics (instantiate: new volatiles get {}). */
    private BitSet sync(int s) {
        return syncs.computeIfAbsent(s, k -> (BitSet) staticInitialiser.clone());
    }

    /** release(t, s): h(s) := h(s) ∪ h(t). Unlock, volatile write. */
    public void release(int t, int s) {
        sync(s).or(thread(t));
    }

    /** acquire(t, s): h(t) := h(t) ∪ h(s). Lock, volatile read. */
    public void acquire(int t, int s) {
        thread(t).or(sync(s));
    }

    /** start thread u: release(t, u) — the child's row receives the parent's. */
    public void fork(int t, int u) {
        thread(u).or(thread(t));
    }

    /** join thread u (or u.isAlive() returned false): acquire(t, u). */
    public void join(int t, int u) {
        thread(t).or(thread(u));
    }

    /** Read of non-volatile x by t: WR race unless norace(x, t) = x ∈ h(t); h is unchanged. */
    public RaceKind read(int t, int x) {
        return thread(t).get(x) ? null : RaceKind.WR;
    }

    /**
     * Write of non-volatile x by t: WW race unless x ∈ h(t); then invalidate(t, x) — x leaves every h(z), z ≠ t,
     * the class initialiser's row included — and x ∈ h(t): after the write, t is the last writer (JRF Lemma 4), also
     * when the write raced (the model checker stops at the first race; a runtime detector goes on).
     */
    public RaceKind write(int t, int x) {
        BitSet own = thread(t);
        RaceKind race = own.get(x) ? null : RaceKind.WW;
        for (BitSet row : threads.values()) {
            row.clear(x);
        }
        for (BitSet row : syncs.values()) {
            row.clear(x);
        }
        staticInitialiser.clear(x);
        own.set(x);
        return race;
    }

    /** instantiate(t, fields, volatiles): the new object's non-volatile locations join h(t). */
    public void instantiate(int t, int... locations) {
        BitSet own = thread(t);
        for (int x : locations) {
            own.set(x);
        }
    }

    /**
     * A write of x inside a class initialiser: x goes into h(static_initializer) and so into every row, existing and
     * future (class initialisation happens-before every use of the class). Not checked.
     */
    public void clinitWrite(int t, int x) {
        thread(t);
        staticInitialiser.set(x);
        for (BitSet row : threads.values()) {
            row.set(x);
        }
        for (BitSet row : syncs.values()) {
            row.set(x);
        }
    }

    /** x ∈ h(t). */
    public boolean threadHas(int t, int x) {
        return thread(t).get(x);
    }

    /** x ∈ h(s). */
    public boolean syncHas(int s, int x) {
        return sync(s).get(x);
    }

    /** A copy of h(t). */
    public BitSet threadRow(int t) {
        return (BitSet) thread(t).clone();
    }

    /** A copy of h(s). */
    public BitSet syncRow(int s) {
        return (BitSet) sync(s).clone();
    }
}
