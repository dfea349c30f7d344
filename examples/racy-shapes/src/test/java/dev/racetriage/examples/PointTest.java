package dev.racetriage.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PointTest {
  @Test
  void bothThreadsSeeSlopeOne() throws Throwable {
    Concurrently.run(
        () -> assertEquals(1.0, Point.slope()),
        () -> {
          // The second thread waits until the singleton exists, so it takes the unsynchronised path of get().
          while (!Point.initialised()) {
            Thread.yield();
          }
          assertEquals(1.0, Point.slope());
        });
  }
}
