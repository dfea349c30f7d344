package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import org.junit.jupiter.api.Test;

/** JUMBLE Figure 8: the program is wrong exactly when the second thread's loop throws (the check saw the circle). */
class RacyInitLoopTest {
  @Test
  void drawingNeverDereferencesNull() throws Throwable {
    RacyInitLoop canvas = new RacyInitLoop();
    Concurrently.run(canvas::initialise, Concurrently.settled(() -> assertDoesNotThrow(canvas::drawTenTimes)));
  }
}
