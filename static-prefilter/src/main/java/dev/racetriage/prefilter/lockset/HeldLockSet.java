package dev.racetriage.prefilter.lockset;

import dev.racetriage.prefilter.facts.HeldLock;
import java.util.ArrayList;
import java.util.List;

/** The locks held at a program point, innermost last; immutable, so a saved set can simply be restored. */
public final class HeldLockSet {

  public static final HeldLockSet EMPTY = new HeldLockSet(List.of());

  private final List<HeldLock> locks;

  private HeldLockSet(List<HeldLock> locks) {
    this.locks = List.copyOf(locks);
  }

  public HeldLockSet with(HeldLock lock) {
    List<HeldLock> next = new ArrayList<>(locks);
    next.removeIf(held -> held.id().equals(lock.id()) && held.mode() == lock.mode());
    next.add(lock);
    return new HeldLockSet(next);
  }

  public HeldLockSet without(String lockId) {
    List<HeldLock> next = new ArrayList<>(locks);
    // release the most recent acquisition only: a re-entrant lock taken twice is still held once
    for (int i = next.size() - 1; i >= 0; i--) {
      if (next.get(i).id().equals(lockId)) {
        next.remove(i);
        break;
      }
    }
    return new HeldLockSet(next);
  }

  public List<HeldLock> locks() {
    return locks;
  }
}
