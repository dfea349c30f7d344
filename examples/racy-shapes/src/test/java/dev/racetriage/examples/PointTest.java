package dev.racetriage.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PointTest {
  /** Every run (racetriage repeats a test in one JVM) races on the creation of the singleton again. */
  @BeforeEach
  void noSingletonYet() {
    Point.reset();
  }

  @Test
  void bothThreadsSeeSlopeOne() throws Throwable {
    Concurrently.run(
        () -> assertEquals(1.0, Point.slope()),
        () -> {
          // The second thread waits until the singleton exists, so it takes the unsynchronised path of get(). It
          // spins rather than yields: a stale null then costs a few spin iterations, not a trip through the scheduler.
          while (!Point.initialised()) {
            Thread.onSpinWait();
          }
          assertEquals(1.0, Point.slope());
        });
  }
}
