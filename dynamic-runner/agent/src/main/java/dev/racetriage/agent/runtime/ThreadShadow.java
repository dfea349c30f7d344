package dev.racetriage.agent.runtime;

import dev.racetriage.agent.hb.ThreadState;

/**
 * The runtime's per-thread record: the re-entrancy flag that keeps the agent's own work (and the JDK code it calls)
 * from producing events, the thread's happens-before state, and a two-entry cache of the objects it touched last
 * (a loop over two arrays then costs no table lookup).
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
  private WeakIdentityTable.Entry<ObjectShadow> entry0;
  private WeakIdentityTable.Entry<ObjectShadow> entry1;

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
    // the cache holds table entries, which reference the objects weakly: the agent must not keep them alive
    if (cacheMemory != memory) {
      entry0 = null;
      entry1 = null;
      cacheMemory = memory;
    }
    WeakIdentityTable.Entry<ObjectShadow> e = entry0;
    if (e != null && e.get() == object) {
      return e.value;
    }
    WeakIdentityTable.Entry<ObjectShadow> other = entry1;
    if (other == null || other.get() != object) {
      other = memory.entry(object);
    }
    entry1 = e;
    entry0 = other;
    return other.value;
  }
}
