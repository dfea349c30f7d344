package dev.racetriage.prefilter.facts;

/** Racy shapes worth a name, each with the fix a user should consider. */
public enum RacePattern {
  DOUBLE_CHECKED_LOCKING(
      "double-checked-locking",
      "Double-checked locking on a non-volatile field: another thread can see the reference before the object is built.",
      "Declare the field volatile, or use the holder-class idiom for a lazily built singleton."),
  CHECK_THEN_ACT(
      "check-then-act",
      "The field is read twice (tested, then used): another thread can change it in between.",
      "Read the field once into a local variable and test and use the local."),
  RACY_LAZY_INIT(
      "racy-lazy-init",
      "Lazy initialisation without a lock: several threads can build the value, and may see it half-built.",
      "Benign only when the value is a primitive or an immutable object and recomputing it is harmless; otherwise"
          + " make the field volatile and read it once into a local, or initialise it under a lock."),
  BUSY_WAIT(
      "busy-wait",
      "A loop waits on a plain field: the loop may never see the write of another thread.",
      "Declare the flag volatile (or use an AtomicBoolean, a CountDownLatch or wait/notify)."),
  LOSSY_COUNTER(
      "lossy-counter",
      "Unlocked read-modify-write (f++, f += n): concurrent updates are lost.",
      "Use an AtomicInteger/AtomicLong or LongAdder, or update the field under a lock.");

  private final String id;
  private final String description;
  private final String fix;

  RacePattern(String id, String description, String fix) {
    this.id = id;
    this.description = description;
    this.fix = fix;
  }

  public String id() {
    return id;
  }

  public String description() {
    return description;
  }

  public String fix() {
    return fix;
  }
}
