package dev.racetriage.agent.runtime;

import java.util.Arrays;

/**
 * {@code Arrays.copyOf}/{@code copyOfRange} of a primitive array held as an {@code Object}: the jumble hooks replace
 * the typed calls with one hook each and make the copy here with the same typed call, so its checks and exceptions
 * are the original's.
 */
final class PrimitiveCopies {
  private PrimitiveCopies() {
  }

  static Object copyOf(Object a, int newLength) {
    if (a instanceof int[] x) return Arrays.copyOf(x, newLength);
    if (a instanceof long[] x) return Arrays.copyOf(x, newLength);
    if (a instanceof double[] x) return Arrays.copyOf(x, newLength);
    if (a instanceof byte[] x) return Arrays.copyOf(x, newLength);
    if (a instanceof char[] x) return Arrays.copyOf(x, newLength);
    if (a instanceof float[] x) return Arrays.copyOf(x, newLength);
    if (a instanceof short[] x) return Arrays.copyOf(x, newLength);
    if (a instanceof boolean[] x) return Arrays.copyOf(x, newLength);
    return Arrays.copyOf((int[]) a, newLength); // null: the NullPointerException the original throws
  }

  static Object copyOfRange(Object a, int from, int to) {
    if (a instanceof int[] x) return Arrays.copyOfRange(x, from, to);
    if (a instanceof long[] x) return Arrays.copyOfRange(x, from, to);
    if (a instanceof double[] x) return Arrays.copyOfRange(x, from, to);
    if (a instanceof byte[] x) return Arrays.copyOfRange(x, from, to);
    if (a instanceof char[] x) return Arrays.copyOfRange(x, from, to);
    if (a instanceof float[] x) return Arrays.copyOfRange(x, from, to);
    if (a instanceof short[] x) return Arrays.copyOfRange(x, from, to);
    if (a instanceof boolean[] x) return Arrays.copyOfRange(x, from, to);
    return Arrays.copyOfRange((int[]) a, from, to);
  }
}
