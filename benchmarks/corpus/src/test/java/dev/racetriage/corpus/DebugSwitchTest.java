package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The racy debug flag: whatever the workers see of it, their sums are right. */
class DebugSwitchTest {
  private static final long SUM_OF_SQUARES_BELOW_20000 = 2_666_466_670_000L;

  @BeforeEach
  void tracingOff() {
    DebugSwitch.reset();
  }

  @Test
  void tracingNeverChangesTheResults() throws Throwable {
    long[] sums = new long[2];
    Concurrently.run(
        () -> DebugSwitch.toggle(200),
        () -> sums[0] = DebugSwitch.sumOfSquares(20_000, DebugSwitch.newTrace()),
        () -> sums[1] = DebugSwitch.sumOfSquares(20_000, DebugSwitch.newTrace()));
    assertEquals(SUM_OF_SQUARES_BELOW_20000, sums[0]);
    assertEquals(SUM_OF_SQUARES_BELOW_20000, sums[1]);
  }
}
