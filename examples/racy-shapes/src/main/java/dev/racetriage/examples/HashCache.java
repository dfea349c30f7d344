package dev.racetriage.examples;

/**
 * JPR Figure 9 without the re-read (line 15): String.hashCode's racy lazy cache. Every thread either reads 0 and
 * recomputes the same value, or reads the cached value; the result is always right.
 *
 * <p>Racy field: {@code hash} (benign).
 */
public final class HashCache {
  private final char[] value;
  private int hash; // not final, default value is 0

  public HashCache(String text) {
    this.value = text.toCharArray();
  }

  @Override
  public int hashCode() {
    int h = hash;
    int len = value.length;
    if (h == 0 && len > 0) {
      char[] val = value;
      for (int i = 0; i < len; i++) {
        h = 31 * h + val[i];
      }
      hash = h;
    }
    return h;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof HashCache that && java.util.Arrays.equals(value, that.value);
  }
}
