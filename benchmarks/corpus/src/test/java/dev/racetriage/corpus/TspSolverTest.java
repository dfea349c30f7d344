package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** tsp: two workers find the exact shortest tour (Held-Karp's) of an 11-city instance. */
class TspSolverTest {
  @Test
  void findsTheShortestTour() throws InterruptedException {
    int[][] instance = TspSolver.instance(11, 7);
    assertEquals(HeldKarp.shortestTour(instance), new TspSolver(instance).solve(2));
  }
}
