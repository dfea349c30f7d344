package dev.racetriage.agent.instrument;

import org.objectweb.asm.Type;

/**
 * Recognises calls that are atomic or ordered memory operations outside bytecode's own field instructions —
 * {@code VarHandle} access modes and {@code Unsafe} methods — and says which happens-before halves they carry:
 * acquire (volatile/acquire/opaque reads), release (volatile/release/opaque writes, lazySet), or both
 * (compare-and-set, get-and-set, get-and-add, bitwise RMW). Plain-mode {@code get}/{@code set} carry none.
 * Opaque accesses are counted as ordered on purpose: more edges can hide a race, fewer would invent one.
 */
final class AtomicCall {
  static final String VAR_HANDLE = "java/lang/invoke/VarHandle";
  static final String INTERNAL_UNSAFE = "jdk/internal/misc/Unsafe";
  static final String SUN_UNSAFE = "sun/misc/Unsafe";

  private AtomicCall() {
  }

  /** The sync mode ({@link HookMethod#SYNC_ACQUIRE}|{@link HookMethod#SYNC_RELEASE}) or 0 if not an ordered op. */
  static int mode(String owner, String name) {
    if (owner.equals(VAR_HANDLE)) {
      return varHandleMode(name);
    }
    if (owner.equals(INTERNAL_UNSAFE) || owner.equals(SUN_UNSAFE)) {
      return unsafeMode(name);
    }
    return 0;
  }

  private static int varHandleMode(String name) {
    if (isReadModifyWrite(name)) {
      return HookMethod.SYNC_ACQUIRE | HookMethod.SYNC_RELEASE;
    }
    return switch (name) {
      case "getVolatile", "getAcquire", "getOpaque" -> HookMethod.SYNC_ACQUIRE;
      case "setVolatile", "setRelease", "setOpaque" -> HookMethod.SYNC_RELEASE;
      default -> 0;
    };
  }

  private static int unsafeMode(String name) {
    if (isReadModifyWrite(name)) {
      return HookMethod.SYNC_ACQUIRE | HookMethod.SYNC_RELEASE;
    }
    if (name.startsWith("get") && (name.endsWith("Volatile") || name.endsWith("Acquire")
        || name.endsWith("Opaque"))) {
      return HookMethod.SYNC_ACQUIRE;
    }
    if ((name.startsWith("put") && (name.endsWith("Volatile") || name.endsWith("Release")
        || name.endsWith("Opaque"))) || name.startsWith("putOrdered")) {
      return HookMethod.SYNC_RELEASE;
    }
    return 0;
  }

  /**
   * For a plain get or put of {@code sun.misc.Unsafe} or {@code jdk.internal.misc.Unsafe} on an object base
   * ({@code getInt(Object, long)}, {@code putReference(Object, long, Object)}, {@code getLongUnaligned(Object, long)}
   * …): the {@code UnsafeHooks.access} kind — the width in bytes shifted left by one, plus 1 for a put; else 0 (an
   * ordered, volatile or atomic form, an absolute address, anything else).
   */
  static int plainUnsafeAccess(String owner, String name, String descriptor) {
    if (!owner.equals(INTERNAL_UNSAFE) && !owner.equals(SUN_UNSAFE) || unsafeMode(name) != 0
        || !descriptor.startsWith("(Ljava/lang/Object;J")) {
      return 0;
    }
    boolean get = name.startsWith("get");
    if (!get && !name.startsWith("put")) {
      return 0;
    }
    String rest = name.substring(3);
    if (rest.endsWith("Unaligned")) {
      rest = rest.substring(0, rest.length() - "Unaligned".length());
    }
    int width = switch (rest) {
      case "Boolean", "Byte" -> 1;
      case "Short", "Char" -> 2;
      case "Int", "Float" -> 4;
      case "Long", "Double" -> 8;
      case "Object", "Reference" -> 4; // a compressed reference; the element scale decides for arrays of them
      default -> 0;
    };
    int arguments = Type.getArgumentTypes(descriptor).length;
    if (width == 0 || arguments != (get ? 2 : 3) && !(name.endsWith("Unaligned") && arguments == (get ? 3 : 4))) {
      return 0;
    }
    return width << 1 | (get ? 0 : 1);
  }

  private static boolean isReadModifyWrite(String name) {
    return name.startsWith("compareAndSet") || name.startsWith("compareAndExchange")
        || name.startsWith("weakCompareAndSet") || name.startsWith("getAndSet") || name.startsWith("getAndAdd")
        || name.startsWith("getAndBitwise");
  }
}
