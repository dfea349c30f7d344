package dev.racetriage.corpus;

/**
 * Peterson's mutual exclusion for two threads with plain (non-volatile) fields, protecting a counter (Java
 * PathRelaxer's {@code peterson}). It excludes under sequential consistency; under the JMM a thread may read a stale
 * {@code flag} or {@code turn} (the store-buffering outcome) and enter while the other is inside, and inside, a
 * stale {@code count} loses an increment.
 *
 * <p>Racy fields: {@code flag0}, {@code flag1}, {@code turn}, {@code count} — destructive (lost increments).
 */
public final class PetersonCounter {
  boolean flag0, flag1;
  int turn;
  int count;

  /**
   * Thread {@code id} (0 or 1) increments the counter, each time inside the lock, at least {@code times} times and
   * until {@code deadlineNanos} ({@link System#nanoTime}) has passed, so the two threads overlap in real time even
   * when one is scheduled late; returns how many increments it made.
   */
  public int increment(int id, int times, long deadlineNanos) {
    int done = 0;
    while (done < times || System.nanoTime() - deadlineNanos < 0) {
      lock(id);
      int seen = count;
      Thread.yield(); // widens the critical section, so two threads inside at once lose an update
      count = seen + 1;
      unlock(id);
      done++;
    }
    return done;
  }

  private void lock(int id) {
    if (id == 0) {
      flag0 = true;
      turn = 1;
      while (flag1 && turn == 1) Thread.yield();
    } else {
      flag1 = true;
      turn = 0;
      while (flag0 && turn == 0) Thread.yield();
    }
  }

  private void unlock(int id) {
    if (id == 0) flag0 = false;
    else flag1 = false;
  }

  public int count() {
    return count;
  }
}
