package dev.racetriage.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SafePointTest {
  @Test
  void bothThreadsSeeSlopeOne() throws Throwable {
    Concurrently.run(
        () -> assertEquals(1.0, SafePoint.slope()),
        () -> {
          while (!SafePoint.initialised()) {
            Thread.yield();
          }
          assertEquals(1.0, SafePoint.slope());
        });
  }
}
