package dev.racetriage.agent.runtime;

import dev.racetriage.agent.hb.HappensBefore;
import dev.racetriage.agent.hb.ThreadState;
import java.util.WeakHashMap;

/**
 * Thread → its happens-before state. A parent creates the child's state when it starts the child (FORK happens
 * before the child runs); the child finds it here on its first event. A joiner finds the joined thread's state here.
 * Weak keys: a finished, unreferenced thread's state goes away with it. Thread does not override equals, so the
 * WeakHashMap compares by identity.
 */
final class ThreadRegistry {
  private final HappensBefore hb;
  private final WeakHashMap<Thread, ThreadState> states = new WeakHashMap<>();

  ThreadRegistry(HappensBefore hb) {
    this.hb = hb;
  }

  synchronized ThreadState stateOf(Thread thread) {
    ThreadState state = states.get(thread);
    if (state == null) {
      // the thread starting (or joining) it is the creator: a joined thread's id may be recycled for it
      Thread current = Thread.currentThread();
      state = hb.newThread(thread.getName(), current == thread ? null : states.get(current));
      states.put(thread, state);
    }
    return state;
  }
}
