package dev.racetriage.agent.instrument;

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

  private static boolean isReadModifyWrite(String name) {
    return name.startsWith("compareAndSet") || name.startsWith("compareAndExchange")
        || name.startsWith("weakCompareAndSet") || name.startsWith("getAndSet") || name.startsWith("getAndAdd")
        || name.startsWith("getAndBitwise");
  }
}
