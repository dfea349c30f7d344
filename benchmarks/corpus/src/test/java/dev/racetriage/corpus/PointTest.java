package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** JUMBLE Figure 2: both threads print slope 1.0; the second one usually finds the singleton already published. */
class PointTest {
  @BeforeEach
  void freshSingleton() {
    Point.forget();
  }

  @Test
  void bothThreadsSeeSlopeOne() throws Throwable {
    Concurrently.run(
        () -> assertEquals(1.0, Point.slope()),
        Concurrently.settled(() -> assertEquals(1.0, Point.slope())));
  }
}
