package dev.racetriage.corpus;

import java.util.Arrays;

/** The exact shortest tour by dynamic programming over subsets (Held-Karp), single-threaded: the tests' oracle. */
final class HeldKarp {
  private HeldKarp() {}

  static int shortestTour(int[][] d) {
    int n = d.length;
    int[][] best = new int[1 << n][n];
    for (int[] row : best) Arrays.fill(row, Integer.MAX_VALUE / 2);
    best[1][0] = 0;
    for (int set = 1; set < (1 << n); set += 2) {
      for (int last = 0; last < n; last++) {
        if ((set & (1 << last)) == 0 || best[set][last] >= Integer.MAX_VALUE / 2) continue;
        for (int next = 1; next < n; next++) {
          if ((set & (1 << next)) != 0) continue;
          int grown = set | (1 << next);
          best[grown][next] = Math.min(best[grown][next], best[set][last] + d[last][next]);
        }
      }
    }
    int all = (1 << n) - 1;
    int tour = Integer.MAX_VALUE;
    for (int last = 1; last < n; last++) tour = Math.min(tour, best[all][last] + d[last][0]);
    return tour;
  }
}
