package dev.racetriage.examples;

/** The synchronised counterpart of {@link Point}: double-checked locking with a volatile singleton reference. */
public final class SafePoint {
  double x, y;
  static volatile SafePoint p;

  SafePoint() {
    x = 1.0;
    y = 1.0;
  }

  static SafePoint get() {
    SafePoint t = p;
    if (t != null) return t;
    synchronized (SafePoint.class) {
      if (p == null) p = new SafePoint();
      return p;
    }
  }

  public static double slope() {
    return get().y / get().x;
  }

  public static boolean initialised() {
    return p != null;
  }
}
