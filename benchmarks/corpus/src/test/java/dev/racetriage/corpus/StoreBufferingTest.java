package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * RELAXER Figure 1. The litmus runs twice, once with each thread second: adversarial memory can only serve values
 * already written, so the stale read of {@code x} needs the first thread to finish first, and that of {@code y} the
 * second.
 */
class StoreBufferingTest {
  @Test
  void oneThreadSeesTheOthersWrite() throws Throwable {
    for (boolean firstGoesFirst : new boolean[] {true, false}) {
      StoreBuffering litmus = new StoreBuffering();
      int[] seen = new int[2];
      Concurrently.Body first = () -> seen[0] = litmus.first();
      Concurrently.Body second = () -> seen[1] = litmus.second();
      if (firstGoesFirst) Concurrently.run(first, Concurrently.settled(second));
      else Concurrently.run(Concurrently.settled(first), second);
      assertTrue(seen[0] == 1 || seen[1] == 1, "r1 == 0 && r2 == 0: both writes were seen late");
    }
  }
}
