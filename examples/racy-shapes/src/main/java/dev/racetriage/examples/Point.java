package dev.racetriage.examples;

/**
 * JUMBLE Figure 2, double-checked locking without volatile. {@code get()} may return the singleton without
 * synchronisation, so a thread can see the point before its coordinates: {@code slope()} then divides by a stale
 * zero.
 *
 * <p>Racy fields: {@code p} (benign: it is read once into a local, a stale null only re-enters the lock),
 * {@code x} and {@code y} (destructive: stale zeros give a wrong slope).
 */
public final class Point {
  double x, y;
  static Point p;

  Point() {
    x = 1.0;
    y = 1.0;
  }

  static Point get() {
    Point t = p;
    if (t != null) return t;
    synchronized (Point.class) {
      if (p == null) p = new Point();
      return p;
    }
  }

  public static double slope() {
    return get().y / get().x;
  }

  /** True once some thread has created the singleton (a racy read, like line 8). */
  public static boolean initialised() {
    return p != null;
  }

  /** Forgets the singleton, so each test starts before its creation (tests only; call it with no thread running). */
  static void reset() {
    p = null;
  }
}
