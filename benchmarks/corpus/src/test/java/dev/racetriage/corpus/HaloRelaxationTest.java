package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

/** JGF sor's barrier: 200 steps on two threads give exactly the sequential rod (same arithmetic, same order). */
class HaloRelaxationTest {
  @Test
  void twoThreadsRelaxLikeOne() throws InterruptedException {
    double[] expected = HaloRelaxation.relaxSequentially(16, 100.0, 0.0, 200);
    assertArrayEquals(expected, new HaloRelaxation(16, 100.0, 0.0).relax(200));
  }
}
