package dev.racetriage.agent.runtime;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;

/**
 * Plain {@code Unsafe} accesses ({@code getInt(Object, long)}, {@code putReference(Object, long, Object)} …, of
 * {@code sun.misc.Unsafe} and {@code jdk.internal.misc.Unsafe}) made by application code: lock-free libraries
 * (JCTools, Agrona, Netty) read and write their fields and array elements this way. The instrumenter calls
 * {@link #access} before each such call with the call's base and offset; this resolves them to the location the
 * bytecode would have named — an instance field (the offset of a non-static, non-final field declared by the base's
 * class or a superclass), a static field (the base is the class {@code staticFieldBase} returns), or the elements of
 * an array the access covers — and checks it as that field's or element's hook does. The ordered, volatile and
 * read-modify-write forms are synchronisation ({@code AtomicCall}), not checked accesses. Not checked: accesses with
 * a null base (absolute addresses: off-heap memory), and offsets that name no such field (a final field, the object
 * header).
 */
public final class UnsafeHooks {
  /** {@code kind}: bit 0 set for a write; the access's width in bytes above it ({@code width << 1}). */
  public static final int WRITE = 1;

  private static final jdk.internal.misc.Unsafe UNSAFE = unsafe();

  private static final ClassValue<Offsets> INSTANCE_FIELDS = new ClassValue<>() {
    @Override
    protected Offsets computeValue(Class<?> type) {
      return Offsets.of(type, false);
    }
  };

  private static final ClassValue<Offsets> STATIC_FIELDS = new ClassValue<>() {
    @Override
    protected Offsets computeValue(Class<?> type) {
      return Offsets.of(type, true);
    }
  };

  private UnsafeHooks() {
  }

  private static jdk.internal.misc.Unsafe unsafe() {
    try {
      return jdk.internal.misc.Unsafe.getUnsafe();
    } catch (Throwable e) { // the package not exported to the agent: nothing resolves, nothing is checked
      return null;
    }
  }

  /**
   * Before a plain Unsafe get or put of {@code width} bytes at {@code base}+{@code offset} ({@code kind}: see
   * {@link #WRITE}), at {@code site}.
   */
  public static void access(Object base, long offset, int kind, int site) {
    DetectRuntime rt = Hooks.installed();
    if (rt == null || base == null || UNSAFE == null) {
      return;
    }
    ThreadShadow t = Hooks.enter();
    if (t == null) {
      return;
    }
    boolean write = (kind & WRITE) != 0;
    Class<?> type = base.getClass();
    boolean array = type.isArray();
    int staticField = -1;
    int field = -1;
    int from = 0;
    int to = 0;
    try {
      if (array) {
        long scale = UNSAFE.arrayIndexScale(type);
        long at = offset - UNSAFE.arrayBaseOffset(type);
        int length = java.lang.reflect.Array.getLength(base);
        if (scale > 0 && at >= 0) {
          from = (int) Math.min(length, at / scale);
          to = (int) Math.min(length, (at + Math.max(1, kind >>> 1) - 1) / scale + 1);
        }
      } else {
        if (base instanceof Class<?> c) {
          staticField = STATIC_FIELDS.get(c).id(offset, rt);
        }
        if (staticField < 0) {
          field = INSTANCE_FIELDS.get(type).id(offset, rt);
        }
      }
    } catch (Throwable e) {
      rt.internalError();
      return;
    } finally {
      t.busy = false;
    }
    // the hooks of the location named, with this thread's shadow: no second lookup
    if (array) {
      if (to - from == 1) {
        if (write) {
          Hooks.writeElement(base, from, site, t);
        } else {
          Hooks.readElement(base, from, site, t);
        }
      } else if (write) {
        Hooks.writeRange(base, from, to, site);
      } else {
        Hooks.readRange(base, from, to, site);
      }
    } else if (staticField >= 0) {
      if (write) {
        Hooks.writeStatic(staticField, site, t);
      } else {
        Hooks.readStatic(staticField, site, t);
      }
    } else if (field >= 0) {
      if (write) {
        Hooks.writeField(base, field, site, t);
      } else {
        Hooks.readField(base, field, site, t);
      }
    }
  }

  /** The offsets of one class's checkable fields (with its superclasses' for instance fields), sorted, and their keys. */
  private static final class Offsets {
    private final long[] offsets;
    private final String[] owners;
    private final String[] names;
    /** The ids in the registry of the run that asked (one per JVM but in the agent's own tests). */
    private volatile Ids ids;

    private record Ids(FieldRegistry registry, int[] ids) {
    }

    private Offsets(long[] offsets, String[] owners, String[] names) {
      this.offsets = offsets;
      this.owners = owners;
      this.names = names;
    }

    static Offsets of(Class<?> type, boolean statics) {
      java.util.List<Field> found = new java.util.ArrayList<>();
      for (Class<?> c = type; c != null; c = statics ? null : c.getSuperclass()) {
        for (Field f : c.getDeclaredFields()) {
          int m = f.getModifiers();
          if (Modifier.isStatic(m) == statics && !Modifier.isFinal(m) && !f.getName().startsWith("$racetriage$")) {
            found.add(f);
          }
        }
      }
      long[] offsets = new long[found.size()];
      Field[] fields = found.toArray(new Field[0]);
      for (int i = 0; i < fields.length; i++) {
        offsets[i] = statics ? UNSAFE.staticFieldOffset(fields[i]) : UNSAFE.objectFieldOffset(fields[i]);
      }
      Integer[] order = new Integer[fields.length];
      Arrays.setAll(order, i -> i);
      Arrays.sort(order, (a, b) -> Long.compare(offsets[a], offsets[b]));
      long[] sorted = new long[fields.length];
      String[] owners = new String[fields.length];
      String[] names = new String[fields.length];
      for (int i = 0; i < order.length; i++) {
        Field f = fields[order[i]];
        sorted[i] = offsets[order[i]];
        owners[i] = f.getDeclaringClass().getName().replace('.', '/');
        names[i] = f.getName();
      }
      return new Offsets(sorted, owners, names);
    }

    /** The run's field id of the field at {@code offset}, or -1. */
    int id(long offset, DetectRuntime rt) {
      int i = Arrays.binarySearch(offsets, offset);
      if (i < 0) {
        return -1;
      }
      FieldRegistry registry = rt.fields();
      Ids known = ids;
      if (known == null || known.registry() != registry) {
        int[] fresh = new int[offsets.length];
        for (int k = 0; k < fresh.length; k++) {
          fresh[k] = registry.id(owners[k], names[k]);
        }
        known = new Ids(registry, fresh);
        ids = known;
      }
      return known.ids()[i];
    }
  }
}
