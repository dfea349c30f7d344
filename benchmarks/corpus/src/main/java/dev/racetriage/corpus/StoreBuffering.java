package dev.racetriage.corpus;

/**
 * RELAXER Figure 1 (store buffering, Dekker's core): {@code x = 1; r1 = y} on one thread, {@code y = 1; r2 = x} on
 * the other. Under sequential consistency one of the reads comes last and sees 1; the JMM (and x86-TSO) allows both
 * writes to be seen late, so {@code r1 == 0 && r2 == 0}.
 *
 * <p>Racy fields: {@code x}, {@code y} — destructive.
 */
public final class StoreBuffering {
  int x, y;

  public int first() {
    x = 1;
    return y;
  }

  public int second() {
    y = 1;
    return x;
  }
}
