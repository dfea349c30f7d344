package dev.racetriage.corpus;

/**
 * JUMBLE Figure 2, double-checked locking without volatile. {@code get()} may hand out the singleton without
 * synchronisation, so a thread can see the point before its coordinates and divide by a stale zero.
 *
 * <p>Racy fields: {@code p} — benign (line 8 reads it once into a local; a stale null only re-enters the lock, whose
 * happens-before edge makes the point visible); {@code x} and {@code y} — destructive (stale 0.0: infinite or NaN
 * slope).
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

  /**
   * Drops the singleton so the next {@code get()} races again. Called by the test before it starts its threads, so
   * the reset happens-before every racy access; without it, a second run in the same JVM would find the point
   * already published to the test thread and race no more.
   */
  static void forget() {
    synchronized (Point.class) {
      p = null;
    }
  }
}
