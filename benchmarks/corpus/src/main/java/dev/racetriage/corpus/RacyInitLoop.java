package dev.racetriage.corpus;

/**
 * JUMBLE Figure 8, literally: one thread initialises {@code x}, another runs {@code if (x != null) x.draw()} ten
 * times. Under the JMM each read of {@code x} may independently return null or the circle, so the check can see the
 * circle and the dereference null: a NullPointerException. The paper's program fails only by that exception (a round
 * that sees null simply draws nothing), which is why its {@code oldest} column is 0: oldest answers null to both
 * reads.
 *
 * <p>Racy field: {@code x} — destructive.
 */
public final class RacyInitLoop {
  Circle x;

  public void initialise() {
    x = new Circle();
  }

  /** Figure 8's second thread; returns the number of rounds that drew. */
  public int drawTenTimes() {
    int drawn = 0;
    for (int i = 0; i < 10; i++) {
      if (x != null) {
        drawn += x.draw();
      }
    }
    return drawn;
  }
}
