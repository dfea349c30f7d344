package dev.racetriage.agent.runtime;

import dev.racetriage.agent.jumble.WriteBuffer;

/**
 * The static methods jumble-mode code calls at the accesses of the locations under trial (names and descriptors
 * bound by {@code dev.racetriage.agent.instrument.JumbleHookMethod}; a unit test checks that both agree). A read hook
 * gets the value the program just loaded and returns the one adversarial memory picks; a write hook gets the old and
 * the new value before the real store. Statics pass a null object. The guard is the one of {@link Hooks}: when the
 * agent is not running, or the thread is inside the agent, or anything goes wrong (counted as an internal error), a
 * read returns the real value and the program never sees an exception.
 */
public final class JumbleHooks {
  private static final WriteBuffer.Kind NARROW = WriteBuffer.Kind.NARROW;
  private static final WriteBuffer.Kind WIDE = WriteBuffer.Kind.WIDE;

  /** Set once at start-up; null means "not running". */
  private static JumbleRuntime runtime;

  private JumbleHooks() {
  }

  public static void install(JumbleRuntime jumbleRuntime) {
    runtime = jumbleRuntime;
  }

  public static JumbleRuntime installed() {
    return runtime;
  }

  /** After a load of a jumbled int-typed field: the value to use instead. */
  public static int readInt(Object object, int value, int slot) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return value;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return value;
    }
    try {
      long bits = rt.readBits(t, object, slot, value, NARROW);
      return (int) bits;
    } catch (Throwable e) {
      rt.internalError();
      return value;
    } finally {
      t.busy = false;
    }
  }

  /** Before a store to a jumbled int-typed field ({@code old}: the field's value before it). */
  public static void writeInt(Object object, int old, int value, int slot) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return;
    }
    try {
      rt.writeBits(t, object, slot, old, value, NARROW);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** After a load of a jumbled float-typed field: the value to use instead. */
  public static float readFloat(Object object, float value, int slot) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return value;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return value;
    }
    try {
      long bits = rt.readBits(t, object, slot, Float.floatToRawIntBits(value), NARROW);
      return Float.intBitsToFloat((int) bits);
    } catch (Throwable e) {
      rt.internalError();
      return value;
    } finally {
      t.busy = false;
    }
  }

  /** Before a store to a jumbled float-typed field ({@code old}: the field's value before it). */
  public static void writeFloat(Object object, float old, float value, int slot) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return;
    }
    try {
      rt.writeBits(t, object, slot, Float.floatToRawIntBits(old), Float.floatToRawIntBits(value), NARROW);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** After a load of a jumbled long-typed field: the value to use instead. */
  public static long readLong(Object object, long value, int slot) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return value;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return value;
    }
    try {
      long bits = rt.readBits(t, object, slot, value, WIDE);
      return bits;
    } catch (Throwable e) {
      rt.internalError();
      return value;
    } finally {
      t.busy = false;
    }
  }

  /** Before a store to a jumbled long-typed field ({@code old}: the field's value before it). */
  public static void writeLong(Object object, long old, long value, int slot) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return;
    }
    try {
      rt.writeBits(t, object, slot, old, value, WIDE);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** After a load of a jumbled double-typed field: the value to use instead. */
  public static double readDouble(Object object, double value, int slot) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return value;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return value;
    }
    try {
      long bits = rt.readBits(t, object, slot, Double.doubleToRawLongBits(value), WIDE);
      return Double.longBitsToDouble(bits);
    } catch (Throwable e) {
      rt.internalError();
      return value;
    } finally {
      t.busy = false;
    }
  }

  /** Before a store to a jumbled double-typed field ({@code old}: the field's value before it). */
  public static void writeDouble(Object object, double old, double value, int slot) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return;
    }
    try {
      rt.writeBits(t, object, slot, Double.doubleToRawLongBits(old), Double.doubleToRawLongBits(value), WIDE);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** After a load of a jumbled reference field: the reference to use instead (the caller casts it back). */
  public static Object readRef(Object object, Object value, int slot) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return value;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return value;
    }
    try {
      return rt.readRef(t, object, slot, value);
    } catch (Throwable e) {
      rt.internalError();
      return value;
    } finally {
      t.busy = false;
    }
  }

  /** Before a store to a jumbled reference field. */
  public static void writeRef(Object object, Object old, Object value, int slot) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return;
    }
    try {
      rt.writeRef(t, object, slot, old, value);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** After an int array element load: the value to use instead. */
  public static int readElementInt(Object array, int index, int value) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return value;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return value;
    }
    try {
      long bits = rt.readElement(t, array, index, value, NARROW);
      return (int) bits;
    } catch (Throwable e) {
      rt.internalError();
      return value;
    } finally {
      t.busy = false;
    }
  }

  /** Before an int array element store. */
  public static void writeElementInt(Object array, int index, int old, int value) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return;
    }
    try {
      rt.writeElement(t, array, index, old, value, NARROW);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** After a float array element load: the value to use instead. */
  public static float readElementFloat(Object array, int index, float value) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return value;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return value;
    }
    try {
      long bits = rt.readElement(t, array, index, Float.floatToRawIntBits(value), NARROW);
      return Float.intBitsToFloat((int) bits);
    } catch (Throwable e) {
      rt.internalError();
      return value;
    } finally {
      t.busy = false;
    }
  }

  /** Before a float array element store. */
  public static void writeElementFloat(Object array, int index, float old, float value) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return;
    }
    try {
      rt.writeElement(t, array, index, Float.floatToRawIntBits(old), Float.floatToRawIntBits(value), NARROW);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** After a long array element load: the value to use instead. */
  public static long readElementLong(Object array, int index, long value) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return value;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return value;
    }
    try {
      long bits = rt.readElement(t, array, index, value, WIDE);
      return bits;
    } catch (Throwable e) {
      rt.internalError();
      return value;
    } finally {
      t.busy = false;
    }
  }

  /** Before a long array element store. */
  public static void writeElementLong(Object array, int index, long old, long value) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return;
    }
    try {
      rt.writeElement(t, array, index, old, value, WIDE);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** After a double array element load: the value to use instead. */
  public static double readElementDouble(Object array, int index, double value) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return value;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return value;
    }
    try {
      long bits = rt.readElement(t, array, index, Double.doubleToRawLongBits(value), WIDE);
      return Double.longBitsToDouble(bits);
    } catch (Throwable e) {
      rt.internalError();
      return value;
    } finally {
      t.busy = false;
    }
  }

  /** Before a double array element store. */
  public static void writeElementDouble(Object array, int index, double old, double value) {
    JumbleRuntime rt = runtime;
    if (rt == null) {
      return;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return;
    }
    try {
      rt.writeElement(t, array, index, Double.doubleToRawLongBits(old), Double.doubleToRawLongBits(value), WIDE);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** An array was read from or stored into the jumbled array field of {@code slot}: sample its elements. */
  public static void arrayInField(Object array, int slot) {
    JumbleRuntime rt = runtime;
    if (rt == null || array == null) {
      return;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return;
    }
    try {
      rt.noteArray(t, array, slot);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /**
   * Replaces {@code System.arraycopy} in jumble mode when arrays are under trial: the copy reads the sampled elements
   * of a jumbled source through their write buffers (a stale value the READ rule allows lands in the destination) and
   * buffers its writes of a jumbled destination's sampled elements, as element loads and stores do. The copy itself
   * runs as the original does and throws what it throws (then nothing is buffered).
   */
  public static void arraycopy(Object src, int srcPos, Object dest, int destPos, int length) {
    JumbleRuntime rt = runtime;
    ThreadShadow t = rt == null ? null : Hooks.enter();
    if (t == null) {
      System.arraycopy(src, srcPos, dest, destPos, length);
      return;
    }
    try {
      rt.arraycopy(t, src, srcPos, dest, destPos, length);
    } finally {
      t.busy = false;
    }
  }

  /**
   * After a primitive array's {@code clone()} in jumble mode: the sampled elements of a jumbled original are read
   * through their write buffers, and the values served replace what the clone copied. Returns the clone.
   */
  public static Object copied(Object original, Object copy) {
    JumbleRuntime rt = runtime;
    ThreadShadow t = rt == null || original == null || copy == null ? null : Hooks.enter();
    if (t == null) {
      return copy;
    }
    try {
      rt.copied(t, original, 0, copy);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
    return copy;
  }

  /**
   * Replaces {@code Arrays.copyOf(a, newLength)} of a primitive array in jumble mode: the copy is made as the original
   * call makes it (and throws what it throws), then its elements that copy sampled elements of a jumbled original are
   * what their write buffers serve, as after {@link #copied}.
   */
  public static Object copyOf(Object original, int newLength) {
    return copiedFrom(original, 0, PrimitiveCopies.copyOf(original, newLength));
  }

  /** Replaces {@code Arrays.copyOfRange(a, from, to)} of a primitive array in jumble mode (see {@link #copyOf}). */
  public static Object copyOfRange(Object original, int from, int to) {
    return copiedFrom(original, from, PrimitiveCopies.copyOfRange(original, from, to));
  }

  private static Object copiedFrom(Object original, int from, Object copy) {
    JumbleRuntime rt = runtime;
    ThreadShadow t = rt == null || original == null || copy == null ? null : Hooks.enter();
    if (t == null) {
      return copy;
    }
    try {
      rt.copied(t, original, from, copy);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
    return copy;
  }

  /** After {@code Arrays.fill} returned: the sampled elements of a jumbled array in {@code [from, to)} are buffered writes. */
  public static void filled(Object array, int from, int to) {
    JumbleRuntime rt = runtime;
    ThreadShadow t = rt == null || array == null ? null : Hooks.enter();
    if (t == null) {
      return;
    }
    try {
      rt.filled(t, array, from, to);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }

  /** Before {@code Arrays.fill}: buffers for the jumbled elements it will store, holding their values before it. */
  public static void filling(Object array, int from, int to) {
    JumbleRuntime rt = runtime;
    ThreadShadow t = rt == null || array == null ? null : Hooks.enter();
    if (t == null) {
      return;
    }
    try {
      rt.filling(array, from, to);
    } catch (Throwable e) {
      rt.internalError();
    } finally {
      t.busy = false;
    }
  }
}
