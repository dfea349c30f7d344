package dev.racetriage.agent.runtime;

import dev.racetriage.agent.detect.LocationState;
import dev.racetriage.agent.hb.SyncClock;
import java.util.Arrays;

/**
 * Where the detector's per-location state and the per-object synchronisation clocks live: a weak identity table of
 * {@link ObjectShadow}s for objects and arrays, and arrays indexed by field id for static fields.
 */
final class ShadowMemory {
  private final FieldRegistry fields;
  private final WeakIdentityTable<ObjectShadow> objects = new WeakIdentityTable<>();
  private volatile LocationState[] statics = new LocationState[256];
  private volatile SyncClock[] staticSync = new SyncClock[256];

  ShadowMemory(FieldRegistry fields) {
    this.fields = fields;
  }

  /**
   * Elements of arrays longer than {@code ArrayShadow.FLAT_MAX} that may still get flat records: 4 Mi elements, 48 MiB
   * of records over the whole run, granted first come first served and never given back (an array's death is not
   * seen). Past it such arrays get chunks, whose records cost ~20 bytes per 64 elements until written: the memory
   * bound stays what it was plus this fixed allowance, and the first arrays — a kernel's matrix, a histogram's counts —
   * keep flat records' speed.
   */
  private final java.util.concurrent.atomic.AtomicLong flatElementsLeft =
      new java.util.concurrent.atomic.AtomicLong(FLAT_GRANT);
  static final long FLAT_GRANT = Long.getLong("racetriage.agent.flatGrant", 1L << 22);

  /** Sets what is left of the grant (tests: 0 gives every array longer than {@code FLAT_MAX} chunks). */
  void flatGrant(long elements) {
    flatElementsLeft.set(elements);
  }

  /** True if an array of {@code length} elements gets flat records from the grant (taken from it). */
  boolean grantFlat(int length) {
    if (flatElementsLeft.get() < length) {
      return false;
    }
    if (flatElementsLeft.addAndGet(-length) >= 0) {
      return true;
    }
    flatElementsLeft.addAndGet(length); // raced past it: give back, get chunks
    return false;
  }

  /** The object's shadow: in its slot if its class has one ({@link ShadowSlots}), else in the table. */
  ObjectShadow of(Object object) {
    long slot = ShadowSlots.offsetOf(object.getClass());
    return slot != ShadowSlots.NONE ? ShadowSlots.of(object, slot, this) : entry(object).value;
  }

  /** The object's shadow if it has one, without creating it. */
  ObjectShadow peek(Object object) {
    long slot = ShadowSlots.offsetOf(object.getClass());
    return slot != ShadowSlots.NONE ? ShadowSlots.peek(object, slot, this) : objects.get(object);
  }

  /** The object's table entry if it has a shadow, without creating one. */
  WeakIdentityTable.Entry<ObjectShadow> peekEntry(Object object) {
    return objects.peekEntry(object);
  }

  /** The table entry of an object without a slot (an array, a JDK object), created if needed. */
  WeakIdentityTable.Entry<ObjectShadow> entry(Object object) {
    return objects.entry(object, newShadow);
  }

  /** Not a lambda: the agent avoids invokedynamic linkage (and the JDK caches behind it) inside hooks. */
  private final java.util.function.Function<Object, ObjectShadow> newShadow =
      new java.util.function.Function<>() {
        @Override
        public ObjectShadow apply(Object object) {
          return ObjectShadow.of(object, ShadowMemory.this);
        }
      };

  LocationState staticField(int fieldId) {
    LocationState[] current = statics;
    LocationState state = fieldId < current.length ? current[fieldId] : null;
    return state != null ? state : addStatic(fieldId);
  }

  private synchronized LocationState addStatic(int fieldId) {
    LocationState[] current = statics;
    if (fieldId >= current.length) {
      current = Arrays.copyOf(current, Math.max(fieldId + 1, current.length * 2));
    }
    LocationState state = current[fieldId];
    if (state == null) {
      state = new LocationState(fields.key(fieldId));
      current[fieldId] = state;
    }
    statics = current;
    return state;
  }

  /** The clock of a static volatile field (one per field: there is no object to share it with). */
  SyncClock staticSync(int fieldId) {
    SyncClock[] current = staticSync;
    SyncClock clock = fieldId < current.length ? current[fieldId] : null;
    return clock != null ? clock : addStaticSync(fieldId);
  }

  private synchronized SyncClock addStaticSync(int fieldId) {
    SyncClock[] current = staticSync;
    if (fieldId >= current.length) {
      current = Arrays.copyOf(current, Math.max(fieldId + 1, current.length * 2));
    }
    SyncClock clock = current[fieldId];
    if (clock == null) {
      clock = new SyncClock();
      current[fieldId] = clock;
    }
    staticSync = current;
    return clock;
  }

  int trackedObjects() {
    return objects.size();
  }
}
