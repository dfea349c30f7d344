package dev.racetriage.agent.runtime;

import dev.racetriage.agent.hb.ThreadState;

/**
 * The runtime's per-thread record: the re-entrancy flag that keeps the agent's own work (and the JDK code it calls)
 * from producing events, the thread's happens-before state, and a small cache of the objects it touched last (a
 * loop over an array, or over a few locks, then costs no shared-table lookup).
 *
 * <p>Used only by its own thread, so nothing here is synchronised.
 */
public final class ThreadShadow {
  private static final ThreadLocal<ThreadShadow> CURRENT = new ThreadLocal<>() {
    @Override
    protected ThreadShadow initialValue() {
      return new ThreadShadow(); // trivial on purpose: a hook must not re-enter while this runs
    }
  };

  /** True while the agent works on this thread; hooks fired meanwhile return at once. */
  boolean busy;
  private ThreadState state;
  /** The registry {@link #state} came from; a new runtime (tests install several) starts the thread afresh. */
  private ThreadRegistry stateRegistry;
  /** The shadow memory the cached entries belong to. */
  private ShadowMemory cacheMemory;
  private static final int RECENT = 64;
  private WeakIdentityTable.Entry<ObjectShadow> last;
  private WeakIdentityTable.Entry<ObjectShadow> previous;
  /** Direct-mapped by identity hash: the objects (locks, stripes, queues) this thread touched recently. */
  private WeakIdentityTable.Entry<?>[] recent = new WeakIdentityTable.Entry<?>[RECENT];

  public static ThreadShadow current() {
    return CURRENT.get();
  }

  /**
   * Marks the thread busy for work that must not produce events (class transformation, report writing).
   *
   * @return the previous value, to hand to {@link #exitAgent(boolean)}
   */
  public boolean enterAgent() {
    boolean previous = busy;
    busy = true;
    return previous;
  }

  public void exitAgent(boolean previous) {
    busy = previous;
  }

  ThreadState state(ThreadRegistry registry) {
    ThreadState s = state;
    if (s == null || stateRegistry != registry) {
      s = registry.stateOf(Thread.currentThread());
      state = s;
      stateRegistry = registry;
    }
    return s;
  }

  ObjectShadow shadowOf(Object object, ShadowMemory memory) {
    // the caches hold table entries, which reference the objects weakly: the agent must not keep them alive
    if (cacheMemory != memory) {
      last = null;
      previous = null;
      recent = new WeakIdentityTable.Entry[RECENT];
      cacheMemory = memory;
    }
    WeakIdentityTable.Entry<ObjectShadow> e = last;
    if (e != null && e.get() == object) {
      return e.value; // loops over one or two arrays or objects: no hashing at all
    }
    WeakIdentityTable.Entry<ObjectShadow> p = previous;
    if (p != null && p.get() == object) {
      previous = e;
      last = p;
      return p.value;
    }
    int slot = System.identityHashCode(object) & (RECENT - 1);
    @SuppressWarnings("unchecked")
    WeakIdentityTable.Entry<ObjectShadow> cached = (WeakIdentityTable.Entry<ObjectShadow>) recent[slot];
    if (cached == null || cached.get() != object) {
      cached = memory.entry(object);
      recent[slot] = cached;
    }
    previous = e;
    last = cached;
    return cached.value;
  }
}
