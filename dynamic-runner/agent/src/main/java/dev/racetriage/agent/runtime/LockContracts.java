package dev.racetriage.agent.runtime;

import jdk.internal.vm.annotation.DontInline;

/**
 * The contract of a read lock instead of its implementation's edges (called from the retransformed
 * {@code ReentrantReadWriteLock.ReadLock}/{@code WriteLock} and {@code StampedLock}; see {@code dev.racetriage.agent.instrument.LockContracts}).
 * A read-lock acquire orders the reader after the last write-unlock, never after another reader's unlock: the JDK
 * implements both through CASes on one {@code state}, so the trusted hooks ordered readers among themselves, and two
 * readers writing a field under the read lock raced only when their sections happened to overlap. So the read
 * lock's own acquire and release run with the thread's hooks off (busy, as the agent's own work), and this class
 * records the contract's edges on two objects: the synchronizer's atomic clock, which write-unlocks release (the
 * read acquire takes it), and a readers' object (a ReentrantReadWriteLock's hold counter, one per lock, or one
 * {@link #readersOf} keeps per StampedLock), which read-unlocks release
 * and a write-lock acquire takes — a writer still comes after every reader that unlocked before it.
 */
public final class LockContracts {
  /** Threads whose hooks this class turned off (so a thread the agent had already marked busy stays busy). */
  private static final ThreadLocal<boolean[]> SILENCED = new ThreadLocal<>() {
    @Override
    protected boolean[] initialValue() {
      return new boolean[1];
    }
  };

  /** A StampedLock's readers' object (it has no per-instance object of its own to use), weakly keyed by lock. */
  private static final java.util.WeakHashMap<Object, Object> READERS = new java.util.WeakHashMap<>();

  private LockContracts() {
  }

  /** The readers' object of a StampedLock (the agent's own lock and map: no events). */
  @DontInline
  public static Object readersOf(Object lock) {
    synchronized (READERS) {
      Object readers = READERS.get(lock);
      if (readers == null) {
        readers = new Object();
        READERS.put(lock, readers);
      }
      return readers;
    }
  }

  /** At every exit of a StampedLock read acquire: {@code stamp} 0 when it failed (or threw). */
  @DontInline
  public static void readAcquired(long stamp, Object lock) {
    readAcquired(stamp != 0L, lock);
  }

  /** After a StampedLock write acquire: {@code stamp} 0 when it failed. */
  @DontInline
  public static void writeAcquired(long stamp, Object readers) {
    writeAcquired(stamp != 0L, readers);
  }

  /** At the entry of a read-lock acquire: its implementation's events are not recorded. */
  @DontInline
  public static void readAcquiring() {
    silence();
  }

  /** At every exit of a read-lock acquire ({@code acquired} false for a failed try or an exception). */
  @DontInline
  public static void readAcquired(boolean acquired, Object sync) {
    unsilence();
    if (acquired) {
      Hooks.atomicAfter(null, sync, Hooks.SYNC_ACQUIRE);
    }
  }

  /** At the entry of a read unlock: release to the readers' object, then no events for the unlock itself. */
  @DontInline
  public static void readReleasing(Object readers) {
    Hooks.atomicBefore(null, readers, Hooks.SYNC_RELEASE);
    silence();
  }

  /** At every exit of a read unlock. */
  @DontInline
  public static void readReleased() {
    unsilence();
  }

  /** After a write-lock acquire succeeded: the writer comes after every reader that unlocked before. */
  @DontInline
  public static void writeAcquired(boolean acquired, Object readers) {
    if (acquired) {
      Hooks.atomicAfter(null, readers, Hooks.SYNC_ACQUIRE);
    }
  }

  private static void silence() {
    if (Hooks.installed() == null) {
      return;
    }
    ThreadShadow t = ThreadShadow.current();
    if (!t.busy) {
      t.busy = true;
      SILENCED.get()[0] = true;
    }
  }

  private static void unsilence() {
    if (Hooks.installed() == null) {
      return;
    }
    boolean[] silenced = SILENCED.get(); // java.lang.ThreadLocal is not instrumented: no events
    if (silenced[0]) {
      silenced[0] = false;
      ThreadShadow.current().busy = false;
    }
  }
}
