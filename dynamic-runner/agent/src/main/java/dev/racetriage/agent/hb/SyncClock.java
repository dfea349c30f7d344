package dev.racetriage.agent.hb;

/**
 * The vector clock of one synchronisation object — a lock, a volatile location, a j.u.c object, or a thread seen as
 * the target of start/join (JUMBLE's L(m), JRF's SynchAddr). It is created at ⊥ ("never released"), and read or
 * written only by {@link HappensBefore} while holding this object's monitor — except {@link #cover}, which an
 * acquire reads without the monitor to skip the join when it would change nothing.
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

    final VectorClock clock = new VectorClock();
    /** See the class comment; written only under this object's monitor, after {@link #clock}. */
    volatile long cover = Epoch.BOTTOM;

    /** A copy of the current clock, taken under the monitor (diagnostics and tests). */
    public synchronized VectorClock snapshot() {
        return new VectorClock(clock);
    }

    /** The current cover epoch (tests). */
    public long coverEpoch() {
        return cover;
    }

    @Override
    public synchronized String toString() {
        return clock.toString();
    }
}
