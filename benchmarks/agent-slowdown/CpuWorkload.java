import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The CPU-heavy multithreaded program of the agent slowdown benchmark (benchmarks/agent-slowdown.sh): a parallel
 * matrix multiply (rows split over a fixed pool, plain array accesses in the inner loop) and a lock-striped counter
 * table (threads increment random stripes, each stripe a ReentrantLock around plain fields). Race-free; prints a
 * checksum so a broken run is visible. A third part, off by default and not part of the whole-program rows, is the
 * same counter table with a {@code synchronized} block per stripe instead of a ReentrantLock (the benchmark runs it
 * on its own, since a method holding a monitor is where HotSpot's JIT is strictest about instrumented code).
 *
 * <p>Usage: {@code java CpuWorkload [threads] [matrixSize] [incrementsPerThread] [synchronizedIncrementsPerThread]}
 */
public final class CpuWorkload {
  static final class Stripe {
    final ReentrantLock lock = new ReentrantLock();
    long count;
    long sum;
  }

  public static void main(String[] args) throws Exception {
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 160;
    int increments = args.length > 2 ? Integer.parseInt(args[2]) : 200_000;
    int synchronizedIncrements = args.length > 3 ? Integer.parseInt(args[3]) : 0;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      double checksum = multiply(pool, threads, n);
      long counted = stripedCounters(pool, threads, increments);
      long synchronizedCounted = synchronizedIncrements > 0
          ? synchronizedCounters(pool, threads, synchronizedIncrements) : 0;
      System.out.println("checksum " + checksum + " counted " + counted + " synchronized " + synchronizedCounted);
    } finally {
      pool.shutdown();
    }
  }

  static double multiply(ExecutorService pool, int threads, int n) throws Exception {
    double[][] a = new double[n][n];
    double[][] b = new double[n][n];
    double[][] c = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        a[i][j] = (i * 31 + j) % 17;
        b[i][j] = (i + j * 7) % 13;
      }
    }
    List<Future<?>> parts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int first = t;
      parts.add(pool.submit(() -> {
        for (int i = first; i < n; i += threads) {
          double[] ci = c[i];
          double[] ai = a[i];
          for (int k = 0; k < n; k++) {
            double aik = ai[k];
            double[] bk = b[k];
            for (int j = 0; j < n; j++) {
              ci[j] += aik * bk[j];
            }
          }
        }
      }));
    }
    for (Future<?> part : parts) {
      part.get();
    }
    double sum = 0;
    for (double[] row : c) {
      for (double v : row) {
        sum += v;
      }
    }
    return sum;
  }

  static long stripedCounters(ExecutorService pool, int threads, int increments) throws Exception {
    Stripe[] stripes = new Stripe[16];
    for (int s = 0; s < stripes.length; s++) {
      stripes[s] = new Stripe();
    }
    List<Future<?>> parts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long seed = 7 + t;
      parts.add(pool.submit(() -> {
        long x = seed;
        for (int k = 0; k < increments; k++) {
          x ^= x << 13;
          x ^= x >>> 7;
          x ^= x << 17;
          Stripe s = stripes[(int) (x & 15)];
          s.lock.lock();
          try {
            s.count++;
            s.sum += k;
          } finally {
            s.lock.unlock();
          }
        }
      }));
    }
    for (Future<?> part : parts) {
      part.get();
    }
    long total = 0;
    for (Stripe s : stripes) {
      s.lock.lock();
      try {
        total += s.count;
      } finally {
        s.lock.unlock();
      }
    }
    return total;
  }

  static long synchronizedCounters(ExecutorService pool, int threads, int increments) throws Exception {
    Stripe[] stripes = new Stripe[16];
    for (int s = 0; s < stripes.length; s++) {
      stripes[s] = new Stripe();
    }
    List<Future<?>> parts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long seed = 11 + t;
      parts.add(pool.submit(() -> {
        long x = seed;
        for (int k = 0; k < increments; k++) {
          x ^= x << 13;
          x ^= x >>> 7;
          x ^= x << 17;
          Stripe s = stripes[(int) (x & 15)];
          synchronized (s) {
            s.count++;
            s.sum += k;
          }
        }
      }));
    }
    for (Future<?> part : parts) {
      part.get();
    }
    long total = 0;
    for (Stripe s : stripes) {
      synchronized (s) {
        total += s.count;
      }
    }
    return total;
  }
}
