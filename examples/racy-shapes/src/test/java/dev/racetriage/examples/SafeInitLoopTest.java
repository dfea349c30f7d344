package dev.racetriage.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SafeInitLoopTest {
  @Test
  void everyRoundDrawsTheCircle() throws Throwable {
    SafeInitLoop canvas = new SafeInitLoop();
    Concurrently.run(canvas::initialise, () -> assertEquals(10, canvas.drawLoop(10)));
  }
}
