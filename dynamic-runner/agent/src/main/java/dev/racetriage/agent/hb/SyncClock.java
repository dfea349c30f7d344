package dev.racetriage.agent.hb;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The vector clock of one synchronisation object — a lock, a volatile location, a j.u.c object, or a thread seen as
 * the target of start/join (JUMBLE's L(m), JRF's SynchAddr). It is created at ⊥ ("never released"), and read or
 * written only by {@link HappensBefore} while holding its lock — except {@link #cover}, which an acquire reads
 * without the lock to skip the join when it would change nothing. The lock is the top bit of {@link #cover} (a
 * compare-and-set to take it, a volatile store of the new cover to give it back), not a monitor: a monitor cost two
 * compare-and-sets and a fence for the cover's volatile store at every release.
 *
 * <p><b>Cover epoch.</b> {@code cover} = c@u promises L(s) ⊑ u's clock at the end of u's period c (the clock u
 * transfers at the release, fork or join that ticks it past c). Any thread t with C(t)(u) ≥ c got its u-component
 * through such a transfer (or is u itself), so C(t) ⊒ that clock ⊒ L(s): the acquire would change nothing. A lock
 * re-taken by the thread that released it last, or a volatile read by the thread that wrote it last, then costs one
 * volatile read instead of a monitor and a join. {@link #UNKNOWN} promises nothing; ⊥ (the initial value) is right
 * for a clock never released.
 */
public final class SyncClock {
    /** A cover no thread ever covers (no thread has this id). */
    static final long UNKNOWN = Epoch.of(Integer.MAX_VALUE, Integer.MAX_VALUE);
    /** The lock bit of {@link #cover}: epochs, ⊥ and {@link #UNKNOWN} all have it clear. */
    private static final long LOCKED = Long.MIN_VALUE;
    private static final VarHandle COVER;

    static {
        try {
            COVER = MethodHandles.lookup().findVarHandle(SyncClock.class, "cover", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * L(s) in full: null while the clock is ⊥ or in its shared form ({@link #base}). Guarded by the lock (see the
     * class comment), as is {@link #base}.
     */
    private VectorClock clock;
    /**
     * The shared form: L(s) = base ⊔ {tid(cover) ↦ clock(cover)}, where base is a releasing thread's frozen clock
     * ({@link VectorClock#frozenExcept}), shared with every other clock that thread released while only its own
     * component moved; never mutated. Set only by a release that copies (the releaser covered the old cover, so
     * L(s) ⊑ C(t) and L(s) := C(t)); the cover is then the releaser's epoch, which no later acquire replaces (only
     * {@link #UNKNOWN} is replaced, and the shared form never has it). A release that joins turns it back into
     * {@link #clock} first. A single-threaded CAS sequence over fresh nodes (a skip list's inserts) then costs this
     * object per node, not this object, a {@code VectorClock} and an {@code int[]} as wide as the threads seen.
     */
    private int[] base;
    /**
     * The cover epoch, see the class comment; its top bit is the lock that guards {@link #clock}. Read it without
     * the lock through {@link #cover()}.
     */
    volatile long cover = Epoch.BOTTOM;

    /**
     * The cover, for an acquire that reads it without the lock: with the lock bit cleared, a release in progress is
     * linearised after the acquire (its program action — the volatile write, the unlock — has not happened yet).
     */
    long cover() {
        return cover & ~LOCKED;
    }

    /**
     * Takes the lock; returns the cover. Held for one clock join or copy at most (see {@link Backoff}). The holder
     * releases it in a {@code finally} with a plain store of the new cover into {@link #cover} (a volatile store: the
     * clock's writes come first), never with a method call: a call may throw {@code StackOverflowError} on a deep
     * stack before it runs, and a lock left held would hang every thread that synchronises on the object.
     */
    long lock() {
        for (int tries = 0; ; tries++) {
            long current = cover;
            if (current >= 0 && COVER.compareAndSet(this, current, current | LOCKED)) {
                return current;
            }
            Backoff.pause(tries);
        }
    }


    /**
     * A release by {@code t} of a clock it released last, with nothing but its own component changed since: L(s) is in
     * the shared form over {@code t}'s frozen array, which is still valid ({@link VectorClock#hasFrozen}), and the cover
     * is {@code t}'s earlier epoch. Then the release under the lock — the acquire half covered, {@link #copyShared}
     * keeping the same array — would change only the cover, to {@code t}'s current epoch; this does that with one
     * compare-and-set of the cover from the value read, without the lock (a compare-and-set and a fenced store). A
     * locked clock, or one another thread released or joined meanwhile (its cover is then another epoch, or
     * {@link #UNKNOWN}; an acquire under the lock restores the cover it found and changes neither form), fails the
     * compare-and-set or the checks: false, and the caller takes the lock. A single-threaded sequence of
     * compare-and-sets or release stores on one object (a histogram's total count) costs one atomic operation each.
     */
    boolean releaseAgain(VectorClock mine, ThreadState t) {
        long current = cover;
        if (current < 0 || Epoch.isBottom(current) || Epoch.tid(current) != t.tid()) {
            return false;
        }
        int[] b = base; // written under the lock before the store of the cover just read
        return b != null && mine.isFrozen(b, t.tid()) && COVER.compareAndSet(this, current, t.epoch());
    }

    /** A copy of the current clock, taken under the lock (diagnostics and tests). */
    public VectorClock snapshot() {
        long current = lock();
        try {
            return copyLocked(current);
        } finally {
            cover = current;
        }
    }

    /** L(s) as a fresh clock; holds the lock, {@code current} the cover it returned. */
    private VectorClock copyLocked(long current) {
        if (base != null) {
            return VectorClock.of(base, current);
        }
        return clock != null ? new VectorClock(clock) : new VectorClock();
    }

    /** C(t) := C(t) ⊔ L(s). Holds the lock, {@code current} the cover it returned. */
    void joinInto(VectorClock mine, long current) {
        if (base != null) {
            mine.joinArray(base);
            mine.joinEpoch(current);
        } else if (clock != null) {
            mine.join(clock);
        }
    }

    /**
     * L(s) := C(t) for thread {@code owner} (the caller has checked L(s) ⊑ C(t)), in the shared form: the cover the
     * caller then stores must be {@code owner}'s current epoch (the full form needs none; it is stored all the same).
     * Holds the lock.
     */
    void copyShared(VectorClock mine, int owner) {
        if (mine.hasFrozen(owner) || (clock == null && base == null)) {
            base = mine.frozenExcept(owner); // shares an array frozen already, or a never-released clock's first one
            clock = null;
        } else {
            // a lock handed back and forth between threads: each acquire drops the releaser's frozen array, and
            // freezing a new one per release would allocate where a copy into this clock's own array does not
            if (clock == null) {
                clock = new VectorClock();
            }
            clock.copyFrom(mine);
            base = null;
        }
    }

    /** L(s) := L(s) ⊔ C(t), in full. Holds the lock, {@code current} the cover it returned. */
    void joinFrom(VectorClock mine, long current) {
        if (clock == null) {
            clock = copyLocked(current);
            base = null;
        }
        clock.join(mine);
    }

    /** The current cover epoch (tests). */
    public long coverEpoch() {
        return cover();
    }

    @Override
    public String toString() {
        return snapshot().toString();
    }
}
