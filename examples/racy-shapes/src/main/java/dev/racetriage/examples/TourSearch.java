package dev.racetriage.examples;

/**
 * A branch-and-bound travelling-salesman search on two threads, in the manner of the JGF {@code tsp} benchmark
 * (JUMBLE §6, TspSolver.MinTourLen): the best tour length found so far is updated under a lock but read without
 * one to prune the search. A stale (larger) bound never makes the answer wrong; it only prunes less, so the search
 * takes longer.
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

  /** The length of the shortest tour that starts and ends at city 0, searched by two threads. */
  public int solve() throws InterruptedException {
    Thread even = new Thread(() -> searchFirstHops(0), "tour-even");
    Thread odd = new Thread(() -> searchFirstHops(1), "tour-odd");
    even.start();
    odd.start();
    even.join();
    odd.join();
    return bestLength;
  }

  private void searchFirstHops(int parity) {
    boolean[] visited = new boolean[cities];
    visited[0] = true;
    int[] path = new int[cities];
    for (int first = 1; first < cities; first++) {
      if (first % 2 != parity) continue;
      visited[first] = true;
      path[1] = first;
      search(path, visited, 2, distance[0][first]);
      visited[first] = false;
    }
  }

  private void search(int[] path, boolean[] visited, int depth, int length) {
    if (length >= bestLength) {
      return; // pruned by a racy read of the bound
    }
    int last = path[depth - 1];
    if (depth == cities) {
      offer(length + distance[last][0]);
      return;
    }
    for (int next = 1; next < cities; next++) {
      if (!visited[next]) {
        visited[next] = true;
        path[depth] = next;
        search(path, visited, depth + 1, length + distance[last][next]);
        visited[next] = false;
      }
    }
  }

  private synchronized void offer(int tourLength) {
    if (tourLength < bestLength) {
      bestLength = tourLength;
    }
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
