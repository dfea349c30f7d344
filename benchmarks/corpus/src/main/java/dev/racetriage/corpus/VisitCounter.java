package dev.racetriage.corpus;

/**
 * Issue 22's hidden race: a counter updated outside any lock, with an empty {@code synchronized} block used as a
 * "memory barrier" — after the update to publish it ({@link #visitAndFlush}), before the update to see the latest
 * value ({@link #refreshAndVisit}). An empty block orders only what happens around it in the order the blocks happen
 * to run: in the usual run the flushing thread's block ends before the refreshing thread's begins, so the lock
 * orders the two updates and happens-before sees no race; in the schedule where the refresh comes first, the
 * updates race and one can be lost.
 *
 * <p>Racy field: {@code visits} — found only by predictive detection (on by default; WCP: the blocks have no conflicting
 * access, so their order is not forced), destructive in the other schedule (a lost update), unexercised by
 * adversarial memory in this one (happens-before orders the accesses it could serve). {@code lockedVisits} is updated
 * inside its blocks: race-free in every schedule (no row in {@code expected.tsv}; a race reported on it is a false
 * one, with prediction too).
 */
public final class VisitCounter {
  private final Object lock = new Object();
  private int visits;
  private int lockedVisits;

  public void visitAndFlush() {
    visits = visits + 1;
    synchronized (lock) { // "flush": orders nothing unless the other thread's block comes later
    }
  }

  public void refreshAndVisit() {
    synchronized (lock) { // "refresh": sees the update only if the other thread's block came earlier
    }
    visits = visits + 1;
  }

  public void visitLocked() {
    synchronized (lock) {
      lockedVisits = lockedVisits + 1;
    }
  }

  /** Called after the visiting threads were joined. */
  public int visits() {
    return visits;
  }

  public int lockedVisits() {
    synchronized (lock) {
      return lockedVisits;
    }
  }
}
