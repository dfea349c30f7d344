package dev.racetriage.agent.hb;

import jdk.internal.vm.annotation.DontInline;

/**
 * The happens-before engine: vector clocks for threads and synchronisation objects updated by the rules of JUMBLE's
 * Figure 6. It is used concurrently by every thread of the program under test; each thread passes its own
 * {@link ThreadState}. No {@code java.util.concurrent} class is used (the agent must not re-enter code it may
 * instrument) and nothing here throws into the program.
 */
public final class HappensBefore {
    private final Object idLock = new Object();
    private int nextTid;
    /**
     * The threads that may still read, for GC1; guarded by idLock. Weak, so that the runtime's own per-thread map
     * decides when a finished thread's state goes away; terminated and collected ones are compacted out whenever the
     * array fills up.
     */
    private java.lang.ref.WeakReference<?>[] registered = new java.lang.ref.WeakReference<?>[16];
    private int registeredCount;
    /** Whether joined threads' ids are handed out again ({@link #recycleJoinedThreads}); guarded by idLock. */
    private boolean recycle;
    /** Joined threads whose ids may be handed out again, in no order; guarded by idLock. */
    private ThreadState[] joinedPool = new ThreadState[8];
    private int joinedCount;

    /**
     * From now on a new thread may get the id of a thread that was joined, when the thread creating it is already
     * ordered after every access of the joined one (its clock covers the joined thread's last epoch). The new thread
     * starts its component above every value the old one ever had, so nothing ordered only after the old thread is
     * ordered after the new one; and the new thread being ordered after the old one is exactly what the creator's
     * clock says already (FORK joins the creator's clock into the child). Vector clocks then stay as wide as the
     * threads alive at once instead of growing by a component per thread ever started: a test repeated in one JVM
     * (jumble mode's trial server) starts new worker threads every run, and every clock join and buffer comparison
     * walked every thread ever seen. Only jumble mode turns it on: detect mode names an access's thread by its id in
     * race reports, and a recycled id would name the wrong thread.
     */
    public void recycleJoinedThreads() {
        synchronized (idLock) {
            recycle = true;
        }
    }

    /**
     * A thread appears, created by {@code creator} (the thread starting or joining it; null if unknown): the state of
     * a joined thread's id when recycling is on and {@code creator} is ordered after that thread's last access,
     * else {@link #newThread(String)}. Called by the creator, which owns its clock.
     */
    public ThreadState newThread(String name, ThreadState creator) {
        if (creator != null) {
            synchronized (idLock) {
                int best = -1;
                for (int i = 0; i < joinedCount; i++) {
                    ThreadState old = joinedPool[i];
                    if (creator.clock().get(old.tid()) >= old.lastOwnClock
                            && (best < 0 || old.tid() < joinedPool[best].tid())) {
                        best = i;
                    }
                }
                if (best >= 0) {
                    ThreadState old = joinedPool[best];
                    joinedPool[best] = joinedPool[--joinedCount];
                    joinedPool[joinedCount] = null;
                    int last;
                    synchronized (old) {
                        old.retire();
                        last = old.clock().get(old.tid());
                    }
                    ThreadState t = new ThreadState(old.tid(), name, last == Integer.MAX_VALUE ? last : last + 1);
                    names[t.tid()] = name;
                    register(t);
                    return t;
                }
            }
        }
        return newThread(name);
    }

    /**
     * A thread appears: it gets the next thread id and the clock inc_t(⊥). For a thread about to be started by
     * another one, call this in the parent and then {@link #fork}.
     */
    public ThreadState newThread(String name) {
        synchronized (idLock) {
            ThreadState t = new ThreadState(nextTid++, name);
            if (t.tid() >= names.length) {
                names = java.util.Arrays.copyOf(names, Math.max(t.tid() + 1, names.length * 2));
            }
            names[t.tid()] = name;
            register(t);
            return t;
        }
    }

    /** Adds a thread to the GC1 registry. Holds idLock. */
    private void register(ThreadState t) {
        if (registeredCount == registered.length) {
            compact();
            if (registeredCount * 2 > registered.length) {
                registered = java.util.Arrays.copyOf(registered, registered.length * 2);
            }
        }
        registered[registeredCount++] = new java.lang.ref.WeakReference<>(t);
    }

    /** Drops collected and terminated threads from the registry. Holds idLock. */
    private void compact() {
        int kept = 0;
        for (int i = 0; i < registeredCount; i++) {
            ThreadState t = (ThreadState) registered[i].get();
            if (t != null && !t.isTerminated()) {
                registered[kept++] = registered[i];
            }
        }
        java.util.Arrays.fill(registered, kept, registeredCount, null);
        registeredCount = kept;
    }

    /**
     * Each thread id's name, kept after the thread is gone (a name, not the state: a state would keep the thread's
     * clock alive), for race reports on locations that store only the last write's epoch. Guarded by idLock; read
     * without it (a stale array misses only names given since).
     */
    private volatile String[] names = new String[16];

    /** The name of the thread with this id (its latest, see {@link #rename}), or "?" if none. */
    public String nameOf(int tid) {
        String[] current = names;
        String name = tid >= 0 && tid < current.length ? current[tid] : null;
        return name != null ? name : "?";
    }

    /** The program renamed the thread: its state and {@link #nameOf} give the new name. */
    public void rename(ThreadState t, String name) {
        t.rename(name);
        synchronized (idLock) {
            names[t.tid()] = name;
        }
    }

    /** How many thread ids have been handed out. */
    public int threadCount() {
        synchronized (idLock) {
            return nextTid;
        }
    }

    /**
     * The threads that may still run: handed out, not terminated, still referenced by the runtime. A snapshot;
     * allocation per call, so for rare work only (adversarial memory's GC1). Their clocks belong to their owners:
     * read them only as a conservative lower bound (clocks only grow).
     */
    public ThreadState[] liveThreads() {
        synchronized (idLock) {
            compact();
            ThreadState[] out = new ThreadState[registeredCount];
            int n = 0;
            for (int i = 0; i < registeredCount; i++) {
                ThreadState t = (ThreadState) registered[i].get();
                if (t != null) {
                    out[n++] = t;
                }
            }
            return n == out.length ? out : java.util.Arrays.copyOf(out, n);
        }
    }

    /** The thread has ended (the runtime saw it exit, or it was joined): it no longer reads memory. */
    public void terminated(ThreadState t) {
        t.markTerminated();
    }

    /**
     * [FORK] fork(t, u): C(u) := C(u) ⊔ C(t); C(t) := inc_t(C(t)). Called by the parent before the child runs
     * ({@code Thread.start}), so the child's clock is not being used by its owner.
     */
    public void fork(ThreadState parent, ThreadState child) {
        synchronized (child) {
            child.clock().join(parent.clock());
            child.refreshGuardEpoch(); // a recycled id's own entry may rise with the parent's clock
        }
        parent.tick();
    }

    /**
     * [JOIN] join(t, u): C(t) := C(t) ⊔ C(u); C(u) := inc_u(C(u)). Call only once the joined thread has terminated
     * ({@code Thread.join} returned, {@code isAlive()} returned false): its clock is then final.
     */
    public void join(ThreadState joiner, ThreadState joined) {
        if (joiner == joined) {
            return;
        }
        int last;
        synchronized (joined) {
            last = joined.clock().get(joined.tid());
            joiner.clock().join(joined.clock());
            if (!joined.isRetired()) {
                joined.tick(); // a retired id's new owner starts above every value it had
            }
        }
        if (!joined.isTerminated()) {
            offerForRecycling(joined, last);
        }
        joined.markTerminated();
    }

    /** A thread joined for the first time: its id may be handed out again (when recycling is on). */
    private void offerForRecycling(ThreadState joined, int lastOwnClock) {
        synchronized (idLock) {
            if (!recycle || joined.isTerminated() || joined.isRetired()) {
                return; // off, or a concurrent joiner offered it already (and it may even have been handed out)
            }
            for (int i = 0; i < joinedCount; i++) {
                if (joinedPool[i] == joined) {
                    return;
                }
            }
            joined.lastOwnClock = lastOwnClock;
            if (joinedCount == joinedPool.length) {
                joinedPool = java.util.Arrays.copyOf(joinedPool, joinedCount * 2);
            }
            joinedPool[joinedCount++] = joined;
        }
    }

    /** True if {@link #acquire} of {@code s} by {@code t} would change nothing: t's clock covers s's cover. */
    public static boolean covers(ThreadState t, SyncClock s) {
        return t.clock().covers(s.cover());
    }

    /**
     * [ACQUIRE] acq(t, s): C(t) := C(t) ⊔ L(s). Lock enter, volatile read, the "after" side of j.u.c edges. Skipped
     * without locking when t covers the clock's cover epoch (L(s) ⊑ C(t) already, see {@link SyncClock}).
     */
    public void acquire(ThreadState t, SyncClock s) {
        if (!covers(t, s)) {
            joinClock(t, s);
        }
    }

    /**
     * The acquire that changes something. Out of line, like {@link #release}: the lock and the join loop are
     * compiled once instead of into every hook that acquires (C2 time was a third of a short run's CPU).
     *
     * <p>Right after t joined L(s), C(t) ⊒ L(s) until t's period ends, so c@t (c = t's current component) is a valid
     * cover. It replaces only an unknown cover: an existing valid one may be covered by more threads already.
     */
    @DontInline
    private static void joinClock(ThreadState t, SyncClock s) {
        long cover = s.lock();
        try {
            s.joinInto(t.clock(), cover);
            if (cover == SyncClock.UNKNOWN) {
                cover = t.epoch();
            }
        } finally {
            s.cover = cover; // releases the lock: a store, never a call (SyncClock#lock)
        }
    }

    /**
     * [RELEASE] rel(t, s): L(s) := L(s) ⊔ C(t); C(t) := inc_t(C(t)). Lock exit, volatile write, the "before" side of
     * j.u.c edges. Figure 6 assigns L(m) := C(t); joining instead is the same for locks (the releaser acquired m, so
     * L(m) ⊑ C(t)) and is what volatiles need: a volatile read is ordered after every earlier write of the variable,
     * not only the one it sees.
     *
     * <p>When t covers the old cover, L(s) ⊑ C(t) already, so the join is a copy and t's current epoch becomes the
     * cover (t's release ticks right after, ending the period).
     */
    @DontInline // always the lock and a clock copy: compiled once, not into each releasing hook
    public void release(ThreadState t, SyncClock s) {
        VectorClock mine = t.clock();
        if (s.releaseAgain(mine, t)) {
            t.tick();
            return;
        }
        long cover = s.lock();
        try {
            if (mine.covers(cover)) {
                s.copyShared(mine, t.tid());
                cover = t.epoch();
            } else {
                s.joinFrom(mine, cover);
                cover = SyncClock.UNKNOWN;
            }
        } finally {
            s.cover = cover; // releases the lock: a store, never a call (SyncClock#lock)
        }
        t.tick();
    }

    /**
     * An atomic read-modify-write (CAS, getAndSet, …): acquire then release on the same object. L(s) afterwards is
     * L(s) ⊔ C(t), exactly what {@link #release} leaves, and t's own epoch covers it, so t's next acquire of s (the
     * runtime's acquire half after the operation) is skipped unless another thread released s meanwhile.
     */
    @DontInline // the lock and two clock loops: compiled once (see release)
    public void acquireRelease(ThreadState t, SyncClock s) {
        VectorClock mine = t.clock();
        if (s.releaseAgain(mine, t)) { // its acquire half is covered: the cover is t's own earlier epoch
            t.tick();
            return;
        }
        long cover = s.lock();
        try {
            if (!mine.covers(cover)) {
                s.joinInto(mine, cover);
            }
            s.copyShared(mine, t.tid()); // L(s) ⊑ C(t) after the join, so L(s) ⊔ C(t) = C(t)
            cover = t.epoch();
        } finally {
            s.cover = cover; // releases the lock: a store, never a call (SyncClock#lock)
        }
        t.tick();
    }
}
