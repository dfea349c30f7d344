package dev.racetriage.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TourSearchTest {
  @Test
  void findsTheShortestTour() throws Exception {
    int[][] instance = TourSearch.instance(11, 7);
    assertEquals(HeldKarp.shortestTour(instance), new TourSearch(instance).solve());
  }
}
