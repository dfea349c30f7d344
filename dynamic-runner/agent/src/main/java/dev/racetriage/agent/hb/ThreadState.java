package dev.racetriage.agent.hb;

/**
 * Per-thread state of the happens-before engine: the thread's id, its vector clock C(t) and the depth of class
 * initialisers it is running. Created only by {@link HappensBefore#newThread(String)}.
 *
 * <p>Ownership: only the thread itself mutates its clock and clinit depth, without locking. The two exceptions are
 * FORK (the parent initialises the child's clock before {@code Thread.start}, so the child is not running yet) and
 * JOIN (the joiner reads and ticks the joined thread's clock after it has terminated); both hold this object's
 * monitor so that two joiners of the same thread do not interleave.
 */
public final class ThreadState {
    private final int tid;
    private final VectorClock clock = new VectorClock();
    private volatile String name;
    private int clinitDepth;
    private volatile boolean terminated;

    /**
     * Set when this thread's id was handed to a new thread ({@link HappensBefore#recycleJoinedThreads}): a later join
     * of it no longer ticks its clock, so its component stays below the new owner's first value. Written under this and the engine's idLock.
     */
    private volatile boolean retired;
    /** This thread's own component when it was first joined: the clock of its last accesses. Guarded by idLock. */
    int lastOwnClock;
    /**
     * {@link #epoch()} outside class initialisers, {@link #NO_GUARD_EPOCH} inside one: kept up to date at every change
     * of either (the clock's own component moves only by {@link #tick}), so that the runtime's owned-write guard
     * reads one field instead of the clock. Written as the clock is (see the class comment).
     */
    private long guardEpoch;
    /** Never an epoch: the owned-write guard's epoch while no write may be settled without its hook. */
    public static final long NO_GUARD_EPOCH = Long.MIN_VALUE;

    ThreadState(int tid, String name) {
        this(tid, name, 1);
    }

    /** A thread whose own component starts at {@code first} (a recycled id starts above every earlier value). */
    ThreadState(int tid, String name, int first) {
        this.tid = tid;
        this.name = name;
        // JUMBLE §4.1: each thread starts with C(t) = inc_t(⊥), so none of its accesses has clock 0 (= ⊥).
        clock.set(tid, first);
        refreshGuardEpoch();
    }

    /** inc_t(C(t)): this thread's next epoch (after a release; a fork or join ticks it too). */
    void tick() {
        clock.tick(tid);
        refreshGuardEpoch();
    }

    /** The owned-write guard's epoch: {@link #epoch()}, or {@link #NO_GUARD_EPOCH} inside a class initialiser. */
    public long guardEpoch() {
        return guardEpoch;
    }

    /** Recomputes {@link #guardEpoch}; also after a join into this (not yet started) thread's clock ({@code fork}). */
    void refreshGuardEpoch() {
        guardEpoch = clinitDepth > 0 ? NO_GUARD_EPOCH : epoch();
    }

    boolean isRetired() {
        return retired;
    }

    void retire() {
        retired = true;
    }

    /** The small id the engine assigned when the thread first appeared; the index of its clock component. */
    public int tid() {
        return tid;
    }

    /** The thread's name for reports (the runtime may refresh it when the program renames the thread). */
    public String name() {
        return name;
    }

    public void rename(String newName) {
        this.name = newName;
    }

    /** C(t). Owned by this thread: read it from other threads only as {@link HappensBefore} does. */
    public VectorClock clock() {
        return clock;
    }

    /** The epoch of this thread's current accesses: C(t)(t)@t. */
    public long epoch() {
        return Epoch.of(tid, clock.get(tid));
    }

    /** Called by the runtime when this thread enters a {@code <clinit>}; writes inside are recorded at ⊥. */
    public void enterClinit() {
        clinitDepth++;
        guardEpoch = NO_GUARD_EPOCH;
    }

    /** Called when this thread leaves a {@code <clinit>} (normally or by an exception). Never goes below 0. */
    public void exitClinit() {
        if (clinitDepth > 0) {
            clinitDepth--;
        }
        refreshGuardEpoch();
    }

    /** True while this thread runs a class initialiser (possibly nested: one clinit may trigger another). */
    public boolean inClinit() {
        return clinitDepth > 0;
    }

    /** True once the thread was joined or reported ended; it performs no more accesses. */
    public boolean isTerminated() {
        return terminated;
    }

    void markTerminated() {
        terminated = true;
    }

    @Override
    public String toString() {
        return "thread " + tid + " (" + name + ") " + clock;
    }
}
