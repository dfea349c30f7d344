package dev.racetriage.examples;

/**
 * JUMBLE Figure 8, racy initialisation revisited. Initially {@code x == null}; one thread initialises it, another
 * runs the check-then-act idiom {@code if (x != null) x.draw()} in a loop. Under the Java Memory Model each read of
 * {@code x} may independently see null or the circle, so the check can pass and the dereference still see null.
 *
 * <p>Racy field: {@code x} (destructive: NullPointerException under stale reads).
 */
public final class RacyInitLoop {
  Circle x;

  public void initialise() {
    x = new Circle();
  }

  /** Waits until the circle is seen once, then draws it {@code rounds} times with the racy idiom. */
  public int drawLoop(int rounds) {
    while (x == null) {
      Thread.yield();
    }
    int drawn = 0;
    for (int i = 0; i < rounds; i++) {
      if (x != null) {
        drawn += x.draw();
      }
    }
    return drawn;
  }
}
