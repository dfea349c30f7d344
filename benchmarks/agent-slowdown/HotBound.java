import java.util.Random;

/**
 * The hot-field workload of the jumble overhead benchmark (benchmarks/jumble-overhead.sh, WORKLOAD=hotfield): a
 * branch-and-bound search for the shortest tour of a random instance, split over threads by the first city visited,
 * sharing the best length found so far as a pruning bound. The bound is read at every node without synchronisation
 * (millions of reads per run, JUMBLE's tsp shape) and lowered under a lock. A stale bound prunes less, never wrongly:
 * each thread keeps the best tour it found itself and the answer is the smallest. Prints the tour length and how many
 * times the bound was read.
 *
 * <p>Usage: {@code java HotBound [threads] [cities] [seed]}
 */
public final class HotBound {
  static int bound = Integer.MAX_VALUE;
  private static final Object LOCK = new Object();

  private final int[][] dist;
  private final int n;
  private long reads;
  private int best = Integer.MAX_VALUE;

  private HotBound(int[][] dist) {
    this.dist = dist;
    this.n = dist.length;
  }

  public static void main(String[] args) throws Exception {
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 12;
    long seed = args.length > 2 ? Long.parseLong(args[2]) : 42;
    Random random = new Random(seed);
    int[][] dist = new int[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        dist[i][j] = dist[j][i] = 1 + random.nextInt(1000);
      }
    }
    HotBound[] searches = new HotBound[threads];
    Thread[] workers = new Thread[threads];
    for (int w = 0; w < threads; w++) {
      int me = w;
      searches[w] = new HotBound(dist);
      workers[w] = new Thread(() -> {
        boolean[] visited = new boolean[n];
        visited[0] = true;
        for (int first = 1 + me; first < n; first += threads) {
          visited[first] = true;
          searches[me].search(first, 2, dist[0][first], visited);
          visited[first] = false;
        }
      });
    }
    for (Thread t : workers) t.start();
    for (Thread t : workers) t.join();
    int tour = Integer.MAX_VALUE;
    long reads = 0;
    for (HotBound s : searches) {
      tour = Math.min(tour, s.best);
      reads += s.reads;
    }
    System.out.println("tour " + tour + " reads " + reads);
  }

  private void search(int city, int depth, int length, boolean[] visited) {
    reads++;
    if (length >= bound) {
      return; // pruned by the shared bound (racy read)
    }
    if (depth == n) {
      int total = length + dist[city][0];
      if (total < best) {
        best = total;
        synchronized (LOCK) {
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
        search(next, depth + 1, length + dist[city][next], visited);
        visited[next] = false;
      }
    }
  }
}
