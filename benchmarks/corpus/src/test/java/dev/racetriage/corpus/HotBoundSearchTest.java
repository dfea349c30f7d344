package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The hot bound: two workers find the exact shortest tour (Held-Karp's) of a 13-city instance. */
class HotBoundSearchTest {
  @Test
  void findsTheShortestTourReadingTheBoundAtEveryNode() throws InterruptedException {
    int[][] instance = TspSolver.instance(13, 11);
    assertEquals(HeldKarp.shortestTour(instance), new HotBoundSearch(instance).solve(2));
  }
}
