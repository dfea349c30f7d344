package dev.racetriage.corpus;

/**
 * A lookup table that one thread allocates, fills and then publishes through a plain field (issue 19's held-out
 * shape: a lazily built table of conversion factors). Nothing orders the fill before a reader that finds the array in
 * the field, so the JMM lets that reader see an element's default 0.0: the only write to it that happens before the
 * read is the array's default initialisation.
 *
 * <p>Racy fields: {@code factors} — benign (a stale null means "not loaded yet", which the reader handles);
 * {@code factors[]} — destructive (a factor read as its default 0.0 gives a wrong conversion).
 */
public final class FreshTable {
  double[] factors;

  public void load() {
    double[] f = new double[] {1.0, 1_000.0, 1_000_000.0};
    factors = f;
  }

  /** {@code value} in unit {@code unit} (0 = one, 1 = kilo, 2 = mega) in ones, or -1 while nothing is loaded. */
  public double toBase(double value, int unit) {
    double[] f = factors;
    return f == null ? -1 : value * f[unit];
  }
}
