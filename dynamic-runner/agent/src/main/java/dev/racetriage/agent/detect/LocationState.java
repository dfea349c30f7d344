package dev.racetriage.agent.detect;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import dev.racetriage.agent.hb.Backoff;
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
 * <p>Concurrency protocol: {@link #lastWrite} is volatile and is the only field read without the location's lock. The
 * lock is the top bit of {@link #lastWrite} itself ({@link #lock()}: a compare-and-set; the holder's volatile
 * store of the new epoch gives it back), not a monitor: a monitor cost two compare-and-sets and a fence per write
 * after each of the thread's releases. All three fields are written together under the lock. Epochs never have the top bit set (thread
 * ids are non-negative ints), and lock-free readers use the epoch with the bit cleared: the write in flight is then
 * linearised after them. See {@link HSummaryDetector} for why that is enough.
 */
public final class LocationState {
    private static final long LOCKED = Long.MIN_VALUE;
    private static final VarHandle LAST_WRITE;

    static {
        try {
            LAST_WRITE = MethodHandles.lookup().findVarHandle(LocationState.class, "lastWrite", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String fieldKey;
    /** The last write's epoch; its top bit is the lock (see the class comment): read it through {@link #epoch()}. */
    volatile long lastWrite = Epoch.BOTTOM;
    /** Guarded by the lock; read racily only as a hint in the write fast path. */
    int lastSite = -1;
    /**
     * Guarded by the lock. The name, not the ThreadState: holding the state would keep a finished thread's clock (as
     * wide as the number of threads seen) alive for as long as any location it wrote last.
     */
    String lastWriter;

    /** @param fieldKey the field key the races of this location are reported under, e.g. {@code pkg.Cls.f} */
    public LocationState(String fieldKey) {
        this.fieldKey = fieldKey;
    }

    /**
     * A location whose last write is already known ({@code epoch} at {@code site} by {@code writer}): the runtime's
     * compact owner records turned into states (not yet shared with other threads: no lock needed).
     */
    public LocationState(String fieldKey, long epoch, int site, String writer) {
        this.fieldKey = fieldKey;
        this.lastSite = site;
        this.lastWriter = writer;
        this.lastWrite = epoch;
    }

    public String fieldKey() {
        return fieldKey;
    }

    /** The epoch of the last completed write (a packed {@link Epoch}); {@link Epoch#BOTTOM} when never written. */
    public long lastWriteEpoch() {
        return epoch();
    }

    /**
     * True if the last write is already {@code now} (unlocked) from {@code site}: the same thread's write again in the
     * same epoch from the same site changes nothing ({@code HSummaryDetector.write}'s first test; the runtime's write
     * hook asks it without a call, see {@code Hooks.writeField}).
     */
    public boolean repeats(long now, int site) {
        return lastWrite == now && lastSite == site;
    }

    /** The last write's epoch without the lock bit: a write in progress has not happened yet. */
    long epoch() {
        return lastWrite & ~LOCKED;
    }

    /**
     * Takes the location's lock and returns the last write's epoch. Held for a few field accesses only (see
     * {@link Backoff}). The holder releases it with a plain store of the new epoch into {@link #lastWrite} (a
     * volatile store publishes the site and writer stored before it), not with a method call: a call may throw
     * {@code StackOverflowError} on a deep stack before it runs, and a lock left held would hang every thread that
     * touches the location (a monitor's exit is a bytecode and cannot fail that way).
     */
    long lock() {
        for (int spins = 0; ; spins++) {
            long epoch = lastWrite;
            if (epoch >= 0 && LAST_WRITE.compareAndSet(this, epoch, epoch | LOCKED)) {
                return epoch;
            }
            Backoff.pause(spins);
        }
    }

    /**
     * Moves the last write from {@code seen} (unlocked) to {@code now} in one compare-and-set, without the lock: for
     * a write that changes neither the site nor the writer (the detector's same-writer path). Fails if anything else
     * happened to the location since {@code seen} was read (a lock taken, another write).
     */
    boolean advance(long seen, long now) {
        return LAST_WRITE.compareAndSet(this, seen, now);
    }

    @Override
    public String toString() {
        return fieldKey + " last written at " + Epoch.toString(epoch());
    }
}
