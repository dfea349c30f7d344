/**
 * The happens-before engine: vector clocks for threads and synchronisation objects, updated by the FORK, JOIN,
 * ACQUIRE and RELEASE rules of JUMBLE's Figure 6. Detection ({@code agent.detect}) and adversarial memory
 * ({@code agent.jumble}) share it.
 *
 * <h2>Contract for the runtime hooks</h2>
 * <ul>
 * <li>One {@link dev.racetriage.agent.hb.HappensBefore} per JVM. Each program thread gets one
 * {@link dev.racetriage.agent.hb.ThreadState} from {@code newThread(name)} the first time the runtime sees it
 * (ids are dense, assigned in order of appearance; the initial clock is inc_t(⊥)). Keep it in the runtime's own
 * per-thread shadow (e.g. a map keyed by the {@code Thread}); pass it to every call made on that thread.</li>
 * <li>{@code Thread.start}: in the parent, get (or create) the child's ThreadState, then
 * {@code fork(parent, child)} <em>before</em> the real start. The child must then use that same state.</li>
 * <li>{@code Thread.join} returned / {@code isAlive()} returned false: {@code join(joiner, joined)} — only once the
 * joined thread has terminated.</li>
 * <li>Each synchronisation object (monitor, volatile field of an object or class, j.u.c object) gets one
 * {@link dev.racetriage.agent.hb.SyncClock} ({@code new SyncClock()}, starts at ⊥) in the runtime's shadow memory.
 * {@code monitorenter}, volatile read, "after" side of a j.u.c edge: {@code acquire(t, s)}.
 * {@code monitorexit}, volatile write, "before" side: {@code release(t, s)}. {@code Object.wait}: release before,
 * acquire after. CAS/RMW: {@code acquireRelease(t, s)}.</li>
 * <li>{@code <clinit>} entry/exit (also exceptional exit): {@code t.enterClinit()} / {@code t.exitClinit()} on the
 * running thread's state.</li>
 * <li>Thread exit, if hooked: {@code terminated(t)} (join does it too), so adversarial memory's GC1 stops keeping
 * entries for it; never for a thread that may still run (a timed-out {@code join(millis)} is not a join).</li>
 * </ul>
 * <p>Threading: a ThreadState is used only by its own thread (fork and join, which touch another thread's state,
 * lock it). A SyncClock is locked by the engine for each acquire/release; no {@code java.util.concurrent} is used
 * and no method throws. Costs: acquire/release are O(#threads seen); clocks grow as new thread ids appear.
 */
package dev.racetriage.agent.hb;
