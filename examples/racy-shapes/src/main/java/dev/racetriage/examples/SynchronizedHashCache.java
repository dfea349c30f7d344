package dev.racetriage.examples;

/** The synchronised counterpart of {@link HashCache}: the cache is read and written under the object's lock. */
public final class SynchronizedHashCache {
  private final char[] value;
  private int hash;

  public SynchronizedHashCache(String text) {
    this.value = text.toCharArray();
  }

  @Override
  public synchronized int hashCode() {
    int h = hash;
    if (h == 0 && value.length > 0) {
      for (char c : value) {
        h = 31 * h + c;
      }
      hash = h;
    }
    return h;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SynchronizedHashCache that && java.util.Arrays.equals(value, that.value);
  }
}
