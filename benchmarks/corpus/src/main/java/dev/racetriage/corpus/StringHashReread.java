package dev.racetriage.corpus;

/**
 * Java PathRelaxer's {@code hash2} program (its Figure 9 with line 15): the same lazy cache, but the result is read
 * again from the field before it is returned. Correct under sequential consistency; under the JMM a thread that read
 * another thread's cached value in the first read may read the initial 0 in the second, and return 0.
 *
 * <p>Racy field: {@code hash} — destructive.
 */
public final class StringHashReread {
  private final char[] value;
  private int hash;

  public StringHashReread(String text) {
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
    h = hash; // the redundant re-read of JPR Figure 9, line 15
    return h;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof StringHashReread that && java.util.Arrays.equals(value, that.value);
  }
}
