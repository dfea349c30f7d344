package dev.racetriage.corpus;

/**
 * Java PathRelaxer's {@code hash} program (its Figure 9 without line 15): {@code String.hashCode}'s racy lazy cache.
 * A thread reads either 0 and recomputes the same value, or a cached value; the local {@code h} it returns is always
 * right, under every value the JMM lets the read return.
 *
 * <p>Racy field: {@code hash} — benign.
 */
public final class StringHash {
  private final char[] value;
  private int hash; // not final, default value is 0

  public StringHash(String text) {
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
    return other instanceof StringHash that && java.util.Arrays.equals(value, that.value);
  }
}
