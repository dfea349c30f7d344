package dev.racetriage.agent.runtime;

import jdk.internal.vm.annotation.DontInline;

/**
 * The hooks instrumented code calls at bulk array operations ({@code System.arraycopy}, {@code Arrays.fill/sort/
 * setAll}; see {@code dev.racetriage.agent.instrument.BulkArrayCalls}): they validate what the JDK call is about to
 * check, so a call that will throw for its arguments records no write, and hand the range to {@link Hooks}' range
 * checks, which guard, count errors and never throw. Read ranges after a call need no validation (the call returned)
 * and are {@link Hooks#readRange(Object, int, int, int)} itself.
 *
 * <p>The names and descriptors are bound by {@code dev.racetriage.agent.instrument.BulkHookMethod}; a unit test
 * checks that both agree.
 */
public final class BulkHooks {
  private BulkHooks() {
  }

  /** Before a call that writes elements {@code [from, to)} of {@code array}, if those bounds are valid. */
  @DontInline
  public static void writeRange(Object array, int from, int to, int site) {
    if (array != null && array.getClass().isArray() && 0 <= from && from <= to
        && to <= java.lang.reflect.Array.getLength(array)) {
      Hooks.writeRange(array, from, to, site);
    }
  }

  /** Before a call that writes every element of {@code array}. */
  @DontInline
  public static void writeAll(Object array, int site) {
    if (array != null && array.getClass().isArray()) {
      Hooks.writeRange(array, 0, java.lang.reflect.Array.getLength(array), site);
    }
  }

  /**
   * In place of {@code System.arraycopy(src, srcPos, dest, destPos, length)}: the destination range is checked as
   * written before the copy when the copy will not throw for its bounds or types (a reference copy that fails on an
   * element's type half-way is recorded whole: the program tried to write those elements), the copy runs — throwing
   * what it throws — and the source range is checked as read after it.
   */
  @DontInline
  public static void arraycopy(Object src, int srcPos, Object dest, int destPos, int length, int site) {
    if (copies(src, srcPos, dest, destPos, length)) {
      Hooks.writeRange(dest, destPos, destPos + length, site);
    }
    System.arraycopy(src, srcPos, dest, destPos, length);
    Hooks.readRange(src, srcPos, srcPos + length, site);
  }

  /** Whether {@code System.arraycopy} with these arguments passes its null, type and bounds checks. */
  static boolean copies(Object src, int srcPos, Object dest, int destPos, int length) {
    if (src == null || dest == null || !src.getClass().isArray() || !dest.getClass().isArray()) {
      return false;
    }
    Class<?> from = src.getClass().getComponentType();
    Class<?> to = dest.getClass().getComponentType();
    if ((from.isPrimitive() || to.isPrimitive()) && from != to) {
      return false;
    }
    return srcPos >= 0 && destPos >= 0 && length >= 0
        && (long) srcPos + length <= java.lang.reflect.Array.getLength(src)
        && (long) destPos + length <= java.lang.reflect.Array.getLength(dest);
  }
}
