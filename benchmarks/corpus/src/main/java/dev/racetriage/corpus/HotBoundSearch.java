package dev.racetriage.corpus;

/**
 * A branch-and-bound tour search whose shared bound is read at every node (issue 19's hot field, the shape of
 * benchmarks/agent-slowdown/HotBound.java): about 18 million racy reads per run of 13 cities, a test of 0.5–1 s
 * natively on the loaded 2-core machine that takes seconds under the agent there (the 0.35 s search took
 * 1.5–16 s under {@code sc}; at 14 cities, 60 million reads, adversarial runs took 6–17 s at load 17). The bound
 * is lowered under a lock and read without one; each worker keeps the best tour it found itself and the answer is
 * the smallest after the join, so a stale bound prunes less and never loses a tour.
 *
 * <p>Racy field: {@code bound} (quality of service: stale reads only make the search visit more nodes).
 */
public final class HotBoundSearch {
  private final int[][] dist;
  private final int n;
  private final Object lock = new Object();
  int bound = Integer.MAX_VALUE;

  public HotBoundSearch(int[][] dist) {
    this.dist = dist;
    this.n = dist.length;
  }

  /** The shortest tour from city 0, the first hops dealt round-robin to {@code threads} workers. */
  public int solve(int threads) throws InterruptedException {
    int[] best = new int[threads];
    Thread[] workers = new Thread[threads];
    for (int w = 0; w < threads; w++) {
      int me = w;
      workers[w] = new Thread(() -> {
        boolean[] visited = new boolean[n];
        visited[0] = true;
        int[] mine = {Integer.MAX_VALUE};
        for (int first = 1 + me; first < n; first += threads) {
          visited[first] = true;
          search(first, 2, dist[0][first], visited, mine);
          visited[first] = false;
        }
        best[me] = mine[0];
      }, "bound-" + w);
    }
    for (Thread t : workers) t.start();
    for (Thread t : workers) t.join();
    int tour = Integer.MAX_VALUE;
    for (int b : best) tour = Math.min(tour, b);
    return tour;
  }

  private void search(int city, int depth, int length, boolean[] visited, int[] mine) {
    if (length >= bound) {
      return; // pruned by the shared bound: the racy read, once per node
    }
    if (depth == n) {
      int total = length + dist[city][0];
      if (total < mine[0]) {
        mine[0] = total;
        synchronized (lock) {
          if (total < bound) {
            bound = total;
          }
        }
      }
      return;
    }
    for (int next = 1; next < n; next++) {
      if (!visited[next]) {
        visited[next] = true;
        search(next, depth + 1, length + dist[city][next], visited, mine);
        visited[next] = false;
      }
    }
  }
}
