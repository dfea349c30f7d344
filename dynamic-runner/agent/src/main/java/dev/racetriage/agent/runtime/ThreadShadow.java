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
  private static final int RECENT = 256;
  private WeakIdentityTable.Entry<ObjectShadow> last;
  private WeakIdentityTable.Entry<ObjectShadow> previous;
  /** Direct-mapped by identity hash: the objects (locks, stripes, queues) this thread touched recently (1 KiB). */
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
    return s != null && stateRegistry == registry ? s : newState(registry);
  }

  private ThreadState newState(ThreadRegistry registry) {
    ThreadState s = registry.stateOf(Thread.currentThread());
    state = s;
    stateRegistry = registry;
    return s;
  }

  /**
   * The object's shadow. The fast path compares with the last two objects missed on and stores nothing on a hit, so
   * a loop over two arrays ({@code c[j] += a[j]}) neither hashes nor writes references (which cost G1 barriers).
   */
  ObjectShadow shadowOf(Object object, ShadowMemory memory) {
    // the caches hold table entries, which reference the objects weakly: the agent must not keep them alive
    if (cacheMemory == memory) {
      WeakIdentityTable.Entry<ObjectShadow> e = last;
      if (e != null && e.refersTo(object)) {
        return e.value;
      }
      e = previous;
      if (e != null && e.refersTo(object)) {
        return e.value;
      }
    }
    return shadowOfMiss(object, memory);
  }

  private ObjectShadow shadowOfMiss(Object object, ShadowMemory memory) {
    if (cacheMemory != memory) {
      last = null;
      previous = null;
      recent = new WeakIdentityTable.Entry[RECENT];
      cacheMemory = memory;
    }
    int slot = System.identityHashCode(object) & (RECENT - 1);
    @SuppressWarnings("unchecked")
    WeakIdentityTable.Entry<ObjectShadow> cached = (WeakIdentityTable.Entry<ObjectShadow>) recent[slot];
    if (cached == null || !cached.refersTo(object)) {
      cached = memory.entry(object);
      recent[slot] = cached;
    }
    previous = last;
    last = cached;
    return cached.value;
  }

  /**
   * The object's shadow if it has one, without creating it: the caches first (trusted JDK code reads the same
   * nodes and locks over and over), then the table; a shadow found in the table is cached.
   */
  ObjectShadow peekShadow(Object object, ShadowMemory memory) {
    if (cacheMemory == memory) {
      WeakIdentityTable.Entry<ObjectShadow> e = last;
      if (e != null && e.refersTo(object)) {
        return e.value;
      }
      e = previous;
      if (e != null && e.refersTo(object)) {
        return e.value;
      }
      @SuppressWarnings("unchecked")
      WeakIdentityTable.Entry<ObjectShadow> cached =
          (WeakIdentityTable.Entry<ObjectShadow>) recent[System.identityHashCode(object) & (RECENT - 1)];
      if (cached != null && cached.refersTo(object)) {
        return cached.value;
      }
    }
    return peekMiss(object, memory);
  }

  private ObjectShadow peekMiss(Object object, ShadowMemory memory) {
    WeakIdentityTable.Entry<ObjectShadow> found = memory.peekEntry(object);
    if (found == null) {
      return null;
    }
    if (cacheMemory != memory) {
      last = null;
      previous = null;
      recent = new WeakIdentityTable.Entry[RECENT];
      cacheMemory = memory;
    }
    recent[System.identityHashCode(object) & (RECENT - 1)] = found;
    return found.value;
  }
}
