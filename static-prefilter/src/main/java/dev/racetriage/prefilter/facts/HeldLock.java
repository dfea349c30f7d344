package dev.racetriage.prefilter.facts;

/**
 * One lock held at an access.
 *
 * @param id the lock's identity, the same wherever the same lock is named: {@code pkg.C.this}, {@code pkg.C.class},
 *     the field key of a lock field ({@code pkg.C.lock}), or the expression text when nothing better is known
 * @param display how the source names it ({@code this}, {@code lock}, {@code rw.writeLock()})
 * @param mode exclusive, or shared for the read half of a read/write lock
 */
public record HeldLock(String id, String display, LockMode mode) {

  /** Whether this lock, held by one access, and {@code other}, held by another, keep the two apart. */
  public boolean excludes(HeldLock other) {
    return id.equals(other.id) && (mode == LockMode.EXCLUSIVE || other.mode == LockMode.EXCLUSIVE);
  }

  public HeldLock withIdentity(String newId, LockMode newMode) {
    return new HeldLock(newId, display, newMode);
  }

  @Override
  public String toString() {
    return mode == LockMode.SHARED && !display.endsWith("readLock()") ? display + " (read)" : display;
  }
}
