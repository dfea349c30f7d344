package dev.racetriage.agent.detect;

import dev.racetriage.agent.hb.Epoch;

/**
 * Shadow state of one memory location — one (object, field), one static field, or one (array, index) — for the
 * {@link HSummaryDetector}. The runtime allocates one per location in its own shadow memory, once, and passes it on
 * every access; nothing is allocated per access.
 *
 * <p>It holds the epoch of the last write (x ∈ h(t) iff that epoch happens-before C(t)) and, for the report only, the
 * site and thread of that write. A fresh state is at ⊥: a location never seen to be written counts as written before
 * everyone (the runtime does not hook allocation; default values are visible to every thread, JRF §2.1
 * "the writing of default values synchronizes-with the first access").
 *
 * <p>Concurrency protocol: {@link #lastWrite} is volatile and is the only field read without the monitor. All three
 * fields are written together under this object's monitor. See {@link HSummaryDetector} for why that is enough.
 */
public final class LocationState {
    private final String fieldKey;
    volatile long lastWrite = Epoch.BOTTOM;
    /** Guarded by this; read racily only as a hint in the write fast path. */
    int lastSite = -1;
    /**
     * Guarded by this. The name, not the ThreadState: holding the state would keep a finished thread's clock (as wide
     * as the number of threads seen) alive for as long as any location it wrote last.
     */
    String lastWriter;

    /** @param fieldKey the field key the races of this location are reported under, e.g. {@code pkg.Cls.f} */
    public LocationState(String fieldKey) {
        this.fieldKey = fieldKey;
    }

    public String fieldKey() {
        return fieldKey;
    }

    /** The epoch of the last write (a packed {@link Epoch}); {@link Epoch#BOTTOM} when never written. */
    public long lastWriteEpoch() {
        return lastWrite;
    }

    @Override
    public String toString() {
        return fieldKey + " last written at " + Epoch.toString(lastWrite);
    }
}
