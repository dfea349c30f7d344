package dev.racetriage.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RacyInitLoopTest {
  @Test
  void everyRoundDrawsTheCircle() throws Throwable {
    RacyInitLoop canvas = new RacyInitLoop();
    Concurrently.run(canvas::initialise, () -> assertEquals(10, canvas.drawLoop(10)));
  }
}
