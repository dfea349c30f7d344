package dev.racetriage.examples;

/**
 * A branch-and-bound travelling-salesman search, in the manner of the JGF {@code tsp} benchmark (JUMBLE §6,
 * TspSolver.MinTourLen): the threads share the best tour length found so far as a pruning hint, written and read
 * without synchronisation. A scout thread seeds it with good tours from a quick local search; two threads search
 * exactly. Each thread keeps its own best tour length and the answer is the smallest of them after all threads are
 * joined, so the hint never makes the answer wrong: every value it holds is the length of a real tour (found by a
 * thread whose own best is at most that), and pruning with a larger value only prunes less. A stale hint therefore
 * costs time, never correctness.
 *
 * <p>Each thread reads the hint once per subtree (at depth 2) and prunes that subtree with the smaller of the hint
 * and its own best, refined only by what it finds inside the subtree — a search that keeps shared state out of its
 * inner loop. A thread that keeps reading an old hint searches as if alone.
 *
 * <p>Racy field: {@code bestLength} (quality of service: stale reads slow the search down).
 */
public final class TourSearch {
  private final int[][] distance;
  private final int cities;
  int bestLength = Integer.MAX_VALUE;

  public TourSearch(int[][] distance) {
    this.distance = distance;
    this.cities = distance.length;
  }

  /**
   * The length of the shortest tour that starts and ends at city 0: a scout thread publishes good tours found by a
   * quick local search (nearest neighbour, then 2-opt), while two threads search exactly, pruning with the best
   * published length.
   */
  public int solve() throws InterruptedException {
    int[] best = new int[3];
    Thread scout = new Thread(() -> best[2] = scout(), "tour-scout");
    Thread even = new Thread(() -> best[0] = searchFirstHops(0), "tour-even");
    Thread odd = new Thread(() -> best[1] = searchFirstHops(1), "tour-odd");
    scout.start();
    even.start();
    odd.start();
    scout.join();
    even.join();
    odd.join();
    return Math.min(best[2], Math.min(best[0], best[1]));
  }

  /** Nearest-neighbour tours from every start, each improved by 2-opt; publishes every improvement. */
  private int scout() {
    int mine = Integer.MAX_VALUE;
    for (int start = 0; start < cities; start++) {
      int[] tour = nearestNeighbourTour(start);
      for (boolean improved = true; improved; ) {
        improved = false;
        for (int i = 0; i < cities - 1; i++) {
          for (int j = i + 2; j < cities; j++) {
            int a = tour[i], b = tour[i + 1], c = tour[j], d = tour[(j + 1) % cities];
            if (distance[a][c] + distance[b][d] < distance[a][b] + distance[c][d]) {
              for (int lo = i + 1, hi = j; lo < hi; lo++, hi--) {
                int t = tour[lo];
                tour[lo] = tour[hi];
                tour[hi] = t;
              }
              improved = true;
            }
          }
        }
      }
      int length = 0;
      for (int i = 0; i < cities; i++) {
        length += distance[tour[i]][tour[(i + 1) % cities]];
      }
      if (length < mine) {
        mine = length;
        bestLength = length; // the racy write: publish the hint
      }
    }
    return mine;
  }

  private int[] nearestNeighbourTour(int start) {
    int[] tour = new int[cities];
    boolean[] used = new boolean[cities];
    tour[0] = start;
    used[start] = true;
    for (int i = 1; i < cities; i++) {
      int from = tour[i - 1];
      int next = -1;
      for (int c = 0; c < cities; c++) {
        if (!used[c] && (next < 0 || distance[from][c] < distance[from][next])) next = c;
      }
      tour[i] = next;
      used[next] = true;
    }
    return tour;
  }

  /** Searches the tours whose first hop has the given parity; returns the shortest length it found. */
  private int searchFirstHops(int parity) {
    boolean[] visited = new boolean[cities];
    visited[0] = true;
    int[] path = new int[cities];
    int mine = Integer.MAX_VALUE;
    for (int first = 1; first < cities; first++) {
      if (first % 2 != parity) continue;
      visited[first] = true;
      path[1] = first;
      for (int second = 1; second < cities; second++) {
        if (visited[second]) continue;
        visited[second] = true;
        path[2] = second;
        mine = Math.min(mine, search(path, visited, 3, distance[0][first] + distance[first][second]));
        visited[second] = false;
      }
      visited[first] = false;
    }
    return mine;
  }

  /** Depth-first search below {@code path[0..depth)}; returns the shortest tour it found ({@link Integer#MAX_VALUE}: none). */
  private int search(int[] path, boolean[] visited, int depth, int length) {
    if (length >= bestLength) {
      return Integer.MAX_VALUE; // pruned by a racy read of the hint
    }
    int last = path[depth - 1];
    if (depth == cities) {
      int tour = length + distance[last][0];
      if (tour < bestLength) {
        bestLength = tour; // the racy write: publish the hint (threads may overwrite each other; it is a hint)
        return tour;
      }
      return Integer.MAX_VALUE;
    }
    int found = Integer.MAX_VALUE;
    for (int next = 1; next < cities; next++) {
      if (!visited[next]) {
        visited[next] = true;
        path[depth] = next;
        found = Math.min(found, search(path, visited, depth + 1, length + distance[last][next]));
        visited[next] = false;
      }
    }
    return found;
  }

  /** A reproducible instance: cities at pseudo-random grid points, Manhattan distances. */
  public static int[][] instance(int cities, long seed) {
    long state = seed;
    int[] x = new int[cities];
    int[] y = new int[cities];
    for (int i = 0; i < cities; i++) {
      state = state * 6364136223846793005L + 1442695040888963407L;
      x[i] = (int) ((state >>> 33) % 1000);
      state = state * 6364136223846793005L + 1442695040888963407L;
      y[i] = (int) ((state >>> 33) % 1000);
    }
    int[][] d = new int[cities][cities];
    for (int i = 0; i < cities; i++) {
      for (int j = 0; j < cities; j++) {
        d[i][j] = Math.abs(x[i] - x[j]) + Math.abs(y[i] - y[j]);
      }
    }
    return d;
  }
}
