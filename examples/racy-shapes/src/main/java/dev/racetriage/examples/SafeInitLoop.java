package dev.racetriage.examples;

/** The synchronised counterpart of {@link RacyInitLoop}: {@code x} is volatile and read once per round. */
public final class SafeInitLoop {
  volatile Circle x;

  public void initialise() {
    x = new Circle();
  }

  public int drawLoop(int rounds) {
    while (x == null) {
      Thread.yield();
    }
    int drawn = 0;
    for (int i = 0; i < rounds; i++) {
      Circle c = x;
      if (c != null) {
        drawn += c.draw();
      }
    }
    return drawn;
  }
}
