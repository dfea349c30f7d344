package dev.racetriage.agent.trace;

import dev.racetriage.agent.hb.HappensBefore;
import dev.racetriage.agent.hb.SyncClock;
import dev.racetriage.agent.hb.ThreadState;

import java.util.HashMap;
import java.util.Map;

/**
 * The happens-before side of interpreting a trace, shared by every machine built on the engine (the fast detector,
 * adversarial memory): maps trace thread and sync ids to engine state and applies the synchronisation events by
 * the Figure 6 rules. A thread's state is created on its first appearance — as the child of a fork, or on its own.
 */
public final class TraceThreads {
    private final HappensBefore engine = new HappensBefore();
    private final Map<Integer, ThreadState> threads = new HashMap<>();
    private final Map<Integer, SyncClock> syncs = new HashMap<>();

    public HappensBefore engine() {
        return engine;
    }

    public ThreadState thread(int t) {
        return threads.computeIfAbsent(t, k -> engine.newThread("T" + k));
    }

    public SyncClock sync(int s) {
        return syncs.computeIfAbsent(s, k -> new SyncClock());
    }

    /**
     * Applies a synchronisation event and returns true, or returns false for an access event (read, write, new,
     * clinit write), which the caller handles.
     */
    public boolean applySync(Event event) {
        if (event instanceof Event.Acquire e) {
            engine.acquire(thread(e.thread()), sync(e.sync()));
        } else if (event instanceof Event.Release e) {
            engine.release(thread(e.thread()), sync(e.sync()));
        } else if (event instanceof Event.VolatileRead e) {
            engine.acquire(thread(e.thread()), sync(e.sync()));
        } else if (event instanceof Event.VolatileWrite e) {
            engine.release(thread(e.thread()), sync(e.sync()));
        } else if (event instanceof Event.Fork e) {
            engine.fork(thread(e.thread()), thread(e.child()));
        } else if (event instanceof Event.Join e) {
            engine.join(thread(e.thread()), thread(e.joined()));
        } else {
            return false;
        }
        return true;
    }
}
