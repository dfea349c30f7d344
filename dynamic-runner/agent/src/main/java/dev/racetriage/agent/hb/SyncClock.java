package dev.racetriage.agent.hb;

/**
 * The vector clock of one synchronisation object — a lock, a volatile location, a j.u.c object, or a thread seen as
 * the target of start/join (JUMBLE's L(m), JRF's SynchAddr). It is created at ⊥ ("never released"), and read or
 * written only by {@link HappensBefore} while holding this object's monitor. The runtime keeps one per
 * synchronisation object in its own shadow memory.
 */
public final class SyncClock {
    final VectorClock clock = new VectorClock();

    /** A copy of the current clock, taken under the monitor (diagnostics and tests). */
    public synchronized VectorClock snapshot() {
        return new VectorClock(clock);
    }

    @Override
    public synchronized String toString() {
        return clock.toString();
    }
}
