package dev.racetriage.agent.runtime;

import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;

/**
 * The shadow slot of application objects: a field the instrumenter adds to every application class whose
 * superclass does not get one (see {@code instrument.ShadowSlot}), which holds the object's {@link ObjectShadow}.
 * The shadow then lives and dies with its object — no identity-hash table entry, no {@code WeakReference} for the
 * collector to process, nothing to expunge — and finding it is a class compare and a load. Arrays, JDK objects and
 * objects of classes without a slot (a hidden class, a class left uninstrumented) keep the weak identity table.
 *
 * <p>The slot is read and set with {@code jdk.internal.misc.Unsafe}, at the offset of the field in the most derived
 * class of the object's class chain that declares it (looked up once per class by name, without reflection, which
 * would resolve — and load — the types of all the class's fields). The agent's start-up exports that package to the
 * agent; where it could not, or in a JVM without the instrumenter's slots, every offset is -1 and the table serves.
 */
public final class ShadowSlots {
  /** The field's name; {@code instrument.ShadowSlot.NAME} is the same. */
  static final String NAME = "$racetriage$shadow";
  /**
   * The releaser field's name ({@code instrument.ShadowSlot.RELEASER_NAME}): declared next to the slot by trusted
   * JDK classes with plain reference fields. It holds the one thread that ever released on the object's atomic clock,
   * or {@link #SEVERAL_RELEASERS} once a second one did; null before any release.
   */
  static final String RELEASER = "$racetriage$releaser";
  static final Object SEVERAL_RELEASERS = new Object();
  /** No slot: the object's shadow is in the table. */
  static final long NONE = -1L;

  private static final jdk.internal.misc.Unsafe UNSAFE = unsafe();

  private static jdk.internal.misc.Unsafe unsafe() {
    try {
      return jdk.internal.misc.Unsafe.getUnsafe();
    } catch (Throwable notExported) { // IllegalAccessError: java.base does not export jdk.internal.misc to us
      return null;
    }
  }

  private static final ClassValue<Offset> OFFSETS = new ClassValue<>() {
    @Override
    protected Offset computeValue(Class<?> type) {
      return find(type);
    }
  };

  private static final class Offset {
    final long value;
    /** The releaser field's offset in the class that declares the slot, or {@link #NONE}. */
    final long releaser;

    Offset(long value, long releaser) {
      this.value = value;
      this.releaser = releaser;
    }
  }

  private static final Offset NO_OFFSET = new Offset(NONE, NONE);

  private ShadowSlots() {
  }

  /**
   * {@code Unsafe.getReference(Object, long)} bound to the agent's Unsafe, or null: the slot readers' load. In a holder
   * class, made at the first {@link #slotReader} (in the program's code): this class is first used inside the
   * class-file transformer, where the agent spins no method handles.
   */
  private static final class Load {
    static final java.lang.invoke.MethodHandle HANDLE = load();

    private static java.lang.invoke.MethodHandle load() {
      if (UNSAFE == null) {
        return null;
      }
      try {
        return java.lang.invoke.MethodHandles.lookup().findVirtual(jdk.internal.misc.Unsafe.class, "getReference",
            java.lang.invoke.MethodType.methodType(Object.class, Object.class, long.class)).bindTo(UNSAFE);
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        return null;
      }
    }
  }

  /**
   * The bootstrap of the owned-read guard's slot read where the instrumented class cannot {@code getfield} the slot
   * itself (see {@code instrument.EventInstrumenter#guardOwnedRead}): a class whose slot a superclass declares — the
   * slot is private there, and must stay so (a protected field or an accessor would enter the default
   * {@code serialVersionUID}). Called by the JVM at the call site's first run,
   * when {@code owner} (the field instruction's class, which the read has just resolved) and its superclasses are
   * loaded: the site becomes a constant load at the offset of {@code owner}'s slot ({@link #offsetOf}), which the JIT
   * compiles to the same load as a {@code getfield}, or a constant null where {@code owner} has no slot (the guard then
   * always falls through to the hook). An object of a subclass that declares a slot of its own has its shadow there
   * and null at {@code owner}'s offset: the guard falls through, as it does for any object without a shadow. Never
   * throws: a site it could not link reads null.
   */
  public static java.lang.invoke.CallSite slotReader(java.lang.invoke.MethodHandles.Lookup caller, String name,
                                                     java.lang.invoke.MethodType type, Class<?> owner) {
    java.lang.invoke.MethodHandle reader = null;
    try {
      java.lang.invoke.MethodHandle load = Load.HANDLE;
      long offset = load == null ? NONE : offsetOf(owner);
      if (offset != NONE) {
        reader = java.lang.invoke.MethodHandles.insertArguments(load, 1, offset).asType(type);
      }
    } catch (RuntimeException | LinkageError e) {
      reader = null;
    }
    if (reader == null) {
      reader = java.lang.invoke.MethodHandles.dropArguments(
          java.lang.invoke.MethodHandles.constant(Object.class, null), 0, type.parameterList()).asType(type);
    }
    return new java.lang.invoke.ConstantCallSite(reader);
  }

  /** True when slots can be used in this JVM. */
  public static boolean available() {
    return UNSAFE != null;
  }

  /** The offset of the slot objects of {@code type} have, or {@link #NONE}. */
  @DontInline // once per class and thread cache miss (see ThreadShadow)
  static long offsetOf(Class<?> type) {
    if (UNSAFE == null || type.isArray()) {
      return NONE;
    }
    return OFFSETS.get(type).value;
  }

  /** The offset of the releaser field objects of {@code type} have (next to their slot), or {@link #NONE}. */
  @DontInline // once per class and thread cache miss (see ThreadShadow)
  static long releaserOffsetOf(Class<?> type) {
    if (UNSAFE == null || type.isArray()) {
      return NONE;
    }
    return OFFSETS.get(type).releaser;
  }

  /**
   * Records the calling thread as a releaser in {@code object}'s releaser field at {@code offset}, after its release
   * and before the program's atomic operation (whoever sees the operation's effect sees this). Moves only from null to
   * a thread to {@link #SEVERAL_RELEASERS} ({@link #nextReleaser}); the same thread again is one load.
   */
  static void noteReleaser(Object object, long offset) {
    Thread me = Thread.currentThread();
    for (;;) {
      Object r = UNSAFE.getReferenceVolatile(object, offset);
      Object next = nextReleaser(r, me);
      if (next == r || UNSAFE.compareAndSetReference(object, offset, r, next)) {
        return;
      }
    }
  }

  /**
   * The releaser record after a release by {@code me}, given the record {@code r} (a releaser field or
   * {@code ObjectShadow}'s): null → me → {@link #SEVERAL_RELEASERS} at another thread, which stays; {@code r} itself
   * when nothing changes.
   */
  static Object nextReleaser(Object r, Thread me) {
    return r == me || r == SEVERAL_RELEASERS ? r : r == null ? me : SEVERAL_RELEASERS;
  }

  /**
   * True if every release on {@code object}'s atomic clock was the calling thread's (its releaser field at
   * {@code offset} names it): its clock covers the atomic clock. A load from the object the program is reading.
   */
  @ForceInline // the trusted read hook's fast path
  static boolean releasedOnlyByCurrentThread(Object object, long offset) {
    return UNSAFE.getReferenceAcquire(object, offset) == Thread.currentThread();
  }

  private static Offset find(Class<?> type) {
    // up to Object: a trusted JDK class defined after the agent started may declare it too (instrument.ShadowSlot)
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      long offset = declared(c, NAME);
      if (offset != NONE) {
        return new Offset(offset, declared(c, RELEASER));
      }
    }
    return NO_OFFSET;
  }

  private static long declared(Class<?> c, String field) {
    try {
      return UNSAFE.objectFieldOffset(c, field);
    } catch (InternalError noSuchField) {
      return NONE; // not declared here: an uninstrumented or hidden class, or the slot is further up
    }
  }

  /**
   * True if {@code type} itself declares the slot: a retransformation of it must declare it again (and one of a
   * class defined without it must not), since a retransformation cannot change the class's fields.
   */
  public static boolean declares(Class<?> type) {
    return UNSAFE != null && !type.isArray() && !type.isPrimitive() && declared(type, NAME) != NONE;
  }

  /** The shadow in {@code object}'s slot at {@code offset}, or null if none belongs to {@code memory}. */
  static ObjectShadow peek(Object object, long offset, ShadowMemory memory) {
    Object s = UNSAFE.getReferenceAcquire(object, offset);
    return s instanceof ObjectShadow shadow && shadow.memory == memory ? shadow : null;
  }

  /** The shadow in {@code object}'s slot at {@code offset}, installed once (a racing installer's shadow wins). */
  static ObjectShadow of(Object object, long offset, ShadowMemory memory) {
    // a plain load: the shadow was published by a compare-and-set, and what a reader needs of it is final or volatile
    Object s = UNSAFE.getReference(object, offset);
    if (s instanceof ObjectShadow shadow && shadow.memory == memory) {
      return shadow;
    }
    return install(object, offset, memory, s);
  }

  /**
   * True if {@code object}'s slot at {@code offset} holds {@code memory}'s shadow and {@code reader} covers every write
   * to the object (see {@link ObjectShadow#writesCoveredBy}); false if not, or if there is no such shadow yet.
   */
  @ForceInline // the read hook's fast path
  static boolean writesCoveredBy(Object object, long offset, ShadowMemory memory,
                                 dev.racetriage.agent.hb.ThreadState reader) {
    Object s = UNSAFE.getReference(object, offset); // a plain load, as in of()
    return s instanceof ObjectShadow shadow && shadow.memory == memory && shadow.writesCoveredBy(reader);
  }

  /**
   * True if {@code object}'s slot at {@code offset} holds no shadow of {@code memory}, or one whose atomic clock an
   * acquire by {@code reader} would not change ({@link ObjectShadow#atomicClockCoveredBy}); see
   * {@code DetectRuntime.trustedReferenceRead}, which peeks as {@link #peek} does.
   */
  @ForceInline // the trusted read hook's fast path
  static boolean atomicCoveredBy(Object object, long offset, ShadowMemory memory,
                                 dev.racetriage.agent.hb.ThreadState reader) {
    Object s = UNSAFE.getReferenceAcquire(object, offset); // as peek()
    return !(s instanceof ObjectShadow shadow) || shadow.memory != memory || shadow.atomicClockCoveredBy(reader);
  }

  /**
   * As {@link #atomicCoveredBy}, for an atomic acquire ({@code DetectRuntime.atomicAcquire}), which also acquires the
   * clocks of the object's volatile fields: true if the slot holds no shadow of {@code memory}, or one without such
   * clocks whose atomic clock only the calling thread released on (its releaser field at {@code releaser}, if the class
   * has one, or the shadow's record), was never released, or is covered by {@code reader}'s clock.
   */
  @ForceInline // the atomic acquire hook's fast path
  static boolean atomicAcquireCoveredBy(Object object, long offset, long releaser, ShadowMemory memory,
                                        dev.racetriage.agent.hb.ThreadState reader) {
    Object s = UNSAFE.getReferenceAcquire(object, offset); // as peek()
    if (!(s instanceof ObjectShadow shadow) || shadow.memory != memory) {
      return true;
    }
    if (releaser >= 0 && shadow.noVolatileClocks() && releasedOnlyByCurrentThread(object, releaser)) {
      return true;
    }
    return shadow.atomicAcquireCoveredBy(reader);
  }

  /**
   * As {@link #of}, for the write of field {@code fieldId} from {@code site} at epoch {@code now} by a thread outside a
   * class initialiser: a shadow installed here already holds that write (see
   * {@link ObjectShadow#ObjectShadow(ShadowMemory, long, int, int)}), so an object's first write costs one
   * compare-and-set — the slot's — instead of two. If another thread installs first, its shadow is returned and the
   * write goes the usual way.
   */
  static ObjectShadow ofWritten(Object object, long offset, ShadowMemory memory, long now, int fieldId, int site) {
    Object s = UNSAFE.getReference(object, offset); // a plain load, as in of()
    if (s instanceof ObjectShadow shadow && shadow.memory == memory) {
      return shadow;
    }
    return install(object, offset, memory, s, ObjectShadow.forSlot(object, memory, now, fieldId, site));
  }

  /**
   * True if {@code object}'s slot at {@code offset} holds {@code memory}'s shadow and the write of field
   * {@code fieldId} from {@code site} at {@code now} changes nothing in it but a site (see
   * {@link ObjectShadow#rewrite}); false if not, or if there is no such shadow yet.
   */
  @ForceInline // the write hook's fast path
  static boolean rewrites(Object object, long offset, ShadowMemory memory, long now, int fieldId, int site,
                          long keep, long bit) {
    Object s = UNSAFE.getReference(object, offset); // a plain load, as in of()
    return s instanceof ObjectShadow shadow && shadow.memory == memory
        && shadow.rewrite(now, fieldId, site, keep, bit);
  }

  @DontInline // once per object
  private static ObjectShadow install(Object object, long offset, ShadowMemory memory, Object seen) {
    return install(object, offset, memory, seen, ObjectShadow.forSlot(object, memory));
  }

  @DontInline // once per object
  private static ObjectShadow install(Object object, long offset, ShadowMemory memory, Object seen,
                                      ObjectShadow fresh) {
    for (;;) {
      if (UNSAFE.compareAndSetReference(object, offset, seen, fresh)) {
        return fresh;
      }
      seen = UNSAFE.getReferenceAcquire(object, offset);
      if (seen instanceof ObjectShadow shadow && shadow.memory == memory) {
        return shadow;
      }
    }
  }
}
