package dev.racetriage.agent.runtime;

/**
 * A primitive array element as the raw bits write buffers hold (what the element hooks pass: an int-sized value
 * sign-extended, a float's raw int bits, a long, a double's raw long bits), read and written by the array's type.
 */
final class ElementBits {
  private ElementBits() {
  }

  static long get(Object array, int i) {
    if (array instanceof int[] a) {
      return a[i];
    } else if (array instanceof long[] a) {
      return a[i];
    } else if (array instanceof double[] a) {
      return Double.doubleToRawLongBits(a[i]);
    } else if (array instanceof float[] a) {
      return Float.floatToRawIntBits(a[i]);
    } else if (array instanceof byte[] a) {
      return a[i];
    } else if (array instanceof short[] a) {
      return a[i];
    } else if (array instanceof char[] a) {
      return a[i];
    } else if (array instanceof boolean[] a) {
      return a[i] ? 1 : 0;
    }
    throw new IllegalArgumentException("not a primitive array: " + array.getClass().getName());
  }

  static void set(Object array, int i, long bits) {
    if (array instanceof int[] a) {
      a[i] = (int) bits;
    } else if (array instanceof long[] a) {
      a[i] = bits;
    } else if (array instanceof double[] a) {
      a[i] = Double.longBitsToDouble(bits);
    } else if (array instanceof float[] a) {
      a[i] = Float.intBitsToFloat((int) bits);
    } else if (array instanceof byte[] a) {
      a[i] = (byte) bits;
    } else if (array instanceof short[] a) {
      a[i] = (short) bits;
    } else if (array instanceof char[] a) {
      a[i] = (char) bits;
    } else if (array instanceof boolean[] a) {
      a[i] = bits != 0;
    } else {
      throw new IllegalArgumentException("not a primitive array: " + array.getClass().getName());
    }
  }
}
