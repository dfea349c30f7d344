package dev.racetriage.corpus;

/**
 * A branch-and-bound travelling-salesman solver in the manner of JUMBLE §6's {@code tsp} (TspSolver.MinTourLen): the
 * length of the best tour so far is updated under {@code minLock} but read without it, both to prune partial tours
 * and in the double-checked {@code setBest} the paper quotes. The bound only decreases, so a stale read is a larger
 * bound: it prunes less (slower) but never discards a better tour, and the final bound is read after the join.
 *
 * <p>Racy field: {@code minTourLen} — benign here: a stale bound explores more of the tree, but a thread that reaches
 * a leaf takes the lock and catches up, so the extra work is bounded (the paper saw its TspSolver up to 2× slower: qos).
 */
public final class TspSolver {
  private final int[][] distance;
  private final int cities;
  private final Object minLock = new Object();
  int minTourLen = Integer.MAX_VALUE;

  public TspSolver(int[][] distance) {
    this.distance = distance;
    this.cities = distance.length;
  }

  /** The length of the shortest tour from city 0 back to city 0, searched by {@code workers} threads. */
  public int solve(int workers) throws InterruptedException {
    Thread[] threads = new Thread[workers];
    for (int w = 0; w < workers; w++) {
      int share = w;
      threads[w] = new Thread(() -> searchFirstHops(share, workers), "tsp-" + w);
    }
    for (Thread t : threads) t.start();
    for (Thread t : threads) t.join();
    return minTourLen;
  }

  private void searchFirstHops(int share, int workers) {
    boolean[] visited = new boolean[cities];
    visited[0] = true;
    for (int first = 1; first < cities; first++) {
      if (first % workers != share) continue;
      visited[first] = true;
      search(first, visited, 2, distance[0][first]);
      visited[first] = false;
    }
  }

  private void search(int last, boolean[] visited, int depth, int length) {
    if (length >= minTourLen) return; // racy read: prune by a possibly stale bound
    if (depth == cities) {
      setBest(length + distance[last][0]);
      return;
    }
    for (int next = 1; next < cities; next++) {
      if (!visited[next]) {
        visited[next] = true;
        search(next, visited, depth + 1, length + distance[last][next]);
        visited[next] = false;
      }
    }
  }

  /** The paper's set_best: a racy pre-check, then the update under the lock. */
  private void setBest(int best) {
    if (best >= minTourLen) return;
    synchronized (minLock) {
      if (best < minTourLen) {
        minTourLen = best;
      }
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
