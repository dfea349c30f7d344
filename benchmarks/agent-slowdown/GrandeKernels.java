import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * CPU-heavy multithreaded kernels in the style of the Java Grande Forum (JGF) multithreaded benchmarks, the suite
 * FastTrack and RoadRunner measured their race detectors on, written from scratch for the agent slowdown benchmark
 * (benchmarks/agent-slowdown.sh). Each kernel prints one line, {@code <kernel> checksum <value>}, whose value depends
 * only on the kernel and the size: the same for every run and every thread count, so a run broken by instrumentation
 * is visible.
 *
 * <p>Usage: {@code java GrandeKernels <kernel> <threads> <size>}, kernel one of {@code series sor crypt montecarlo
 * lufact moldyn raytracer all} ({@code all} runs the seven in turn, each at the given size). {@code size} is a
 * positive scaling factor of the work, roughly linear (size 4 is about four times the work of size 1; on a 2-core
 * machine size 1 is about 0.1-0.15 s of kernel work, 0.25 s of JVM wall time, and size 4 about 0.4-0.5 s of wall
 * time, the JIT's warm-up making time grow less than the work); what it scales, and how each kernel is synchronised:
 * <ul>
 *   <li>{@code series}: the first {@code 400*size} Fourier coefficients (a_n, b_n) of f(x) = (x+1)^x on [0,2], each
 *       by a 1000-step trapezoid rule. Contiguous ranges of n are tasks of a fixed thread pool writing disjoint
 *       elements of two double[] arrays; Future.get orders the writes before the checksum. Mostly arithmetic
 *       ({@link StrictMath} pow, sin, cos).
 *   <li>{@code sor}: red-black successive over-relaxation (omega 1.25), 100 iterations on an NxN double grid,
 *       N = round(720*sqrt(size)). Explicit threads own contiguous row ranges; a CyclicBarrier after every half-sweep
 *       orders it before the next (a red half-sweep writes red cells and reads only black ones, and vice versa).
 *       Array-heavy inner loops.
 *   <li>{@code crypt}: the IDEA block cipher (8 rounds, 52 16-bit subkeys, multiplication modulo 65537) encrypting
 *       then decrypting {@code 2,000,000*size} bytes. Contiguous block ranges are pool tasks; the encryption tasks'
 *       futures are all joined before the decryption tasks are submitted. The checksum is a hash of the ciphertext,
 *       or {@code decrypt-mismatch-<bytes>} if decrypt(encrypt(x)) != x. Byte and int array accesses.
 *   <li>{@code montecarlo}: {@code 2800*size} independent tasks given to a thread pool with invokeAll; each allocates
 *       its own {@code Path} (drift, volatility, time step, a double[] of prices) and {@code Rng} (a long state
 *       field and a cached Gaussian), simulates a 500-step geometric random walk and returns a {@code Result}; the
 *       results are read from the futures in task order. Object- and field-heavy, all objects confined to a task.
 *   <li>{@code lufact}: LU factorisation with partial pivoting (dgefa-style, column-oriented) of an NxN matrix,
 *       N = round(640*cbrt(size)), then a solve (dgesl-style) of A x = b for b the row sums of A (so x is close to
 *       all ones). Explicit threads own the columns j with j % threads == t; at each step k they swap and eliminate
 *       their columns j &gt; k, then meet at a CyclicBarrier whose barrier action (run by one thread while the
 *       others wait) finds the pivot of column k+1 and scales it: N barrier crossings. The solve runs after the
 *       threads are joined.
 *   <li>{@code moldyn}: molecular dynamics of 864 particles (an FCC lattice, Lennard-Jones potential with a cutoff,
 *       periodic box), {@code 20*size} time steps. Particles are objects with double fields x, y, z, vx, vy, vz, fx,
 *       fy, fz. Per step, explicit threads (1) compute pair forces for 32 fixed partitions of the particles (particle
 *       i in partition i % 32), each partition accumulating into its own force array, (2) after a barrier, sum the
 *       32 arrays in partition order into the particles' force fields for contiguous particle ranges, (3) after a
 *       barrier, update velocities and positions for the same ranges, then meet at a barrier again. The partitions
 *       are fixed by index, not by thread, so the floating-point sums are the same for every thread count.
 *   <li>{@code raytracer}: renders an SxS image, S = round(260*sqrt(size)), of five spheres and two lights (diffuse,
 *       specular, shadows, one reflection bounce) with immutable {@code Vec} objects allocated for every vector
 *       operation. Pool task t renders the rows y with y % threads == t into disjoint elements of an int[] image;
 *       Future.get orders them before the checksum (the sum of the pixels). Allocation- and field-heavy.
 * </ul>
 *
 * <p>Every kernel is race-free by construction: shared arrays and objects are written in phases, each element by the
 * one thread that owns its index range in that phase, and every phase is ordered before the next reader by
 * java.util.concurrent happens-before edges only (Thread.start/join, CyclicBarrier.await and its barrier action,
 * Future.get); thread-confined objects are never shared. There is no volatile field, no benign race and no lock on a
 * hot path. Determinism: random inputs come from fixed seeds per task or index (never per thread), transcendental
 * functions are {@link StrictMath}, and every floating-point reduction runs in index order over partitions defined by
 * index. With {@code -Dgrande.time=true} each kernel also prints its wall time to stderr.
 */
public final class GrandeKernels {
  static final String[] KERNELS = {"series", "sor", "crypt", "montecarlo", "lufact", "moldyn", "raytracer"};

  public static void main(String[] args) throws Exception {
    int threads = 0;
    int size = 0;
    try {
      threads = args.length == 3 ? Integer.parseInt(args[1]) : 0;
      size = args.length == 3 ? Integer.parseInt(args[2]) : 0;
    } catch (NumberFormatException e) {
      threads = 0;
    }
    String kernel = args.length == 3 ? args[0] : "";
    boolean known = kernel.equals("all") || List.of(KERNELS).contains(kernel);
    if (!known || threads < 1 || size < 1) {
      System.err.println("usage: java GrandeKernels <" + String.join("|", KERNELS) + "|all> <threads> <size>");
      System.exit(2);
    }
    for (String k : kernel.equals("all") ? KERNELS : new String[] {kernel}) {
      long start = System.nanoTime();
      String checksum = run(k, threads, size);
      long millis = (System.nanoTime() - start) / 1_000_000;
      System.out.println(String.join(" ", k, "checksum", checksum));
      if (Boolean.getBoolean("grande.time")) {
        System.err.println(k + " ms " + millis);
      }
    }
  }

  static String run(String kernel, int threads, int size) throws Exception {
    switch (kernel) {
      case "series": return series(threads, Math.multiplyExact(400, size));
      case "sor": return sor(threads, (int) Math.round(720 * Math.sqrt(size)), 100);
      case "crypt": return crypt(threads, Math.multiplyExact(2_000_000, size));
      case "montecarlo": return montecarlo(threads, Math.multiplyExact(2800, size), 500);
      case "lufact": return lufact(threads, (int) Math.round(640 * StrictMath.cbrt(size)));
      case "moldyn": return moldyn(threads, 6, Math.multiplyExact(20, size));
      case "raytracer": return raytracer(threads, (int) Math.round(260 * Math.sqrt(size)));
      default: throw new IllegalArgumentException(kernel);
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Shared helpers: explicit threads joined at the end, a pool whose tasks' results are read in submission order.

  interface Worker {
    void run(int thread) throws Exception;
  }

  /** Starts {@code threads} threads running {@code body} and joins them; a failure breaks {@code barrier}. */
  static void runThreads(int threads, CyclicBarrier barrier, Worker body) throws Exception {
    Thread[] workers = new Thread[threads];
    Throwable[] failures = new Throwable[threads];
    for (int t = 0; t < threads; t++) {
      int id = t;
      workers[t] = new Thread(() -> {
        try {
          body.run(id);
        } catch (Throwable e) {
          failures[id] = e;
          if (barrier != null) {
            barrier.reset(); // the others leave await with BrokenBarrierException instead of waiting forever
          }
        }
      }, "grande-".concat(Integer.toString(t)));
    }
    for (Thread w : workers) {
      w.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    for (Throwable f : failures) {
      if (f != null) {
        throw new IllegalStateException("worker failed", f);
      }
    }
  }

  /** Runs the tasks on a fresh pool of {@code threads} threads; returns their results in task order. */
  static <T> List<T> runTasks(int threads, List<Callable<T>> tasks) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<T> results = new ArrayList<>(tasks.size());
      for (Future<T> f : pool.invokeAll(tasks)) {
        results.add(f.get());
      }
      return results;
    } finally {
      pool.shutdown();
    }
  }

  /** First index of part {@code p} of {@code parts} contiguous parts of [0, n). */
  static int split(int n, int parts, int p) {
    return (int) ((long) n * p / parts);
  }

  static long mix(long z) { // SplitMix64 finaliser: a well-spread seed from a task index
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // series: Fourier coefficients of (x+1)^x on [0,2].

  static final int SERIES_STEPS = 1000;

  static String series(int threads, int n) throws Exception {
    double[] a = new double[n];
    double[] b = new double[n];
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int lo = split(n, threads, t);
      int hi = split(n, threads, t + 1);
      tasks.add(() -> {
        for (int k = lo; k < hi; k++) {
          seriesCoefficient(k, a, b);
        }
        return null;
      });
    }
    runTasks(threads, tasks);
    double sum = 0;
    for (int k = 0; k < n; k++) {
      sum += Math.abs(a[k]) + Math.abs(b[k]);
    }
    return Double.toString(sum);
  }

  /** a_k and b_k, the integrals of f(x) cos(k pi x) and f(x) sin(k pi x) over [0,2] (a_0 halved), by trapezoids. */
  static void seriesCoefficient(int k, double[] a, double[] b) {
    double omega = Math.PI * k;
    double h = 2.0 / SERIES_STEPS;
    double sa = 0.5 * (seriesF(0) * StrictMath.cos(0) + seriesF(2) * StrictMath.cos(2 * omega));
    double sb = 0.5 * (seriesF(0) * StrictMath.sin(0) + seriesF(2) * StrictMath.sin(2 * omega));
    for (int i = 1; i < SERIES_STEPS; i++) {
      double x = i * h;
      double fx = seriesF(x);
      sa += fx * StrictMath.cos(omega * x);
      sb += fx * StrictMath.sin(omega * x);
    }
    a[k] = k == 0 ? sa * h / 2 : sa * h;
    b[k] = sb * h;
  }

  static double seriesF(double x) {
    return StrictMath.pow(x + 1, x);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // sor: red-black successive over-relaxation.

  static String sor(int threads, int n, int iterations) throws Exception {
    double omega = 1.25;
    double[][] g = new double[n][n];
    SplittableRandom random = new SplittableRandom(42);
    for (double[] row : g) {
      for (int j = 0; j < n; j++) {
        row[j] = random.nextDouble();
      }
    }
    CyclicBarrier barrier = new CyclicBarrier(threads);
    runThreads(threads, barrier, t -> {
      int lo = 1 + split(n - 2, threads, t);
      int hi = 1 + split(n - 2, threads, t + 1);
      for (int it = 0; it < iterations; it++) {
        for (int colour = 0; colour < 2; colour++) {
          sorHalfSweep(g, lo, hi, colour, omega);
          barrier.await();
        }
      }
    });
    double sum = 0;
    for (double[] row : g) {
      for (double v : row) {
        sum += v;
      }
    }
    return Double.toString(sum);
  }

  /** Relaxes the cells of one colour in rows [lo, hi); cell (i, j) is red (colour 0) when i + j is even. */
  static void sorHalfSweep(double[][] g, int lo, int hi, int colour, double omega) {
    double quarter = omega / 4;
    double keep = 1 - omega;
    for (int i = lo; i < hi; i++) {
      double[] up = g[i - 1];
      double[] row = g[i];
      double[] down = g[i + 1];
      for (int j = ((i + 1) & 1) == colour ? 1 : 2; j < row.length - 1; j += 2) {
        row[j] = quarter * (up[j] + down[j] + row[j - 1] + row[j + 1]) + keep * row[j];
      }
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // crypt: IDEA encryption and decryption.

  static String crypt(int threads, int bytes) throws Exception {
    int n = bytes / 8 * 8;
    byte[] plain = new byte[n];
    new SplittableRandom(7).nextBytes(plain);
    int[] key = new int[8];
    SplittableRandom keyRandom = new SplittableRandom(1234);
    for (int i = 0; i < 8; i++) {
      key[i] = keyRandom.nextInt(1 << 16);
    }
    int[] encryptKey = ideaEncryptKey(key);
    int[] decryptKey = ideaDecryptKey(encryptKey);
    byte[] cipher = new byte[n];
    byte[] decrypted = new byte[n];
    runTasks(threads, ideaTasks(threads, plain, cipher, encryptKey));
    runTasks(threads, ideaTasks(threads, cipher, decrypted, decryptKey));
    int mismatches = 0;
    long hash = 0xcbf29ce484222325L; // FNV-1a over the ciphertext
    for (int i = 0; i < n; i++) {
      hash = (hash ^ (cipher[i] & 0xFF)) * 0x100000001b3L;
      if (plain[i] != decrypted[i]) {
        mismatches++;
      }
    }
    return mismatches == 0 ? Long.toHexString(hash) : "decrypt-mismatch-" + mismatches;
  }

  static List<Callable<Void>> ideaTasks(int threads, byte[] in, byte[] out, int[] subkeys) {
    int blocks = in.length / 8;
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int lo = split(blocks, threads, t);
      int hi = split(blocks, threads, t + 1);
      tasks.add(() -> {
        for (int blk = lo; blk < hi; blk++) {
          ideaBlock(in, out, blk * 8, subkeys);
        }
        return null;
      });
    }
    return tasks;
  }

  /** Multiplication modulo 65537 of 16-bit values, 0 standing for 65536. */
  static int ideaMul(int a, int b) {
    if (a == 0) {
      return (65537 - b) & 0xFFFF;
    }
    if (b == 0) {
      return (65537 - a) & 0xFFFF;
    }
    int p = a * b; // < 2^32: read as unsigned
    int lo = p & 0xFFFF;
    int hi = p >>> 16;
    return (lo - hi + (lo < hi ? 1 : 0)) & 0xFFFF;
  }

  static int ideaInverse(int x) { // x^65535 mod 65537 (Fermat); 0 (65536 = -1) and 1 are their own inverses
    if (x <= 1) {
      return x;
    }
    long result = 1;
    long base = x;
    for (int e = 65535; e > 0; e >>= 1) {
      if ((e & 1) != 0) {
        result = result * base % 65537;
      }
      base = base * base % 65537;
    }
    return (int) result;
  }

  /** The 52 encryption subkeys: the 128-bit key's eight 16-bit words, then again after each 25-bit left rotation. */
  static int[] ideaEncryptKey(int[] key) {
    long hi = 0;
    long lo = 0;
    for (int i = 0; i < 4; i++) {
      hi = hi << 16 | key[i];
      lo = lo << 16 | key[i + 4];
    }
    int[] z = new int[52];
    for (int i = 0; i < 52; i++) {
      int word = i % 8;
      if (i > 0 && word == 0) {
        long newHi = hi << 25 | lo >>> 39;
        lo = lo << 25 | hi >>> 39;
        hi = newHi;
      }
      long half = word < 4 ? hi : lo;
      z[i] = (int) (half >>> (48 - 16 * (word % 4))) & 0xFFFF;
    }
    return z;
  }

  static int[] ideaDecryptKey(int[] z) {
    int[] d = new int[52];
    for (int r = 0; r <= 8; r++) { // decryption round r undoes encryption round 8 - r
      int e = 48 - 6 * r;
      boolean outer = r == 0 || r == 8;
      d[6 * r] = ideaInverse(z[e]);
      d[6 * r + 1] = -z[outer ? e + 1 : e + 2] & 0xFFFF;
      d[6 * r + 2] = -z[outer ? e + 2 : e + 1] & 0xFFFF;
      d[6 * r + 3] = ideaInverse(z[e + 3]);
      if (r < 8) {
        d[6 * r + 4] = z[e - 2];
        d[6 * r + 5] = z[e - 1];
      }
    }
    return d;
  }

  static void ideaBlock(byte[] in, byte[] out, int off, int[] z) {
    int x1 = (in[off] & 0xFF) << 8 | (in[off + 1] & 0xFF);
    int x2 = (in[off + 2] & 0xFF) << 8 | (in[off + 3] & 0xFF);
    int x3 = (in[off + 4] & 0xFF) << 8 | (in[off + 5] & 0xFF);
    int x4 = (in[off + 6] & 0xFF) << 8 | (in[off + 7] & 0xFF);
    int k = 0;
    for (int round = 0; round < 8; round++) {
      x1 = ideaMul(x1, z[k++]);
      x2 = (x2 + z[k++]) & 0xFFFF;
      x3 = (x3 + z[k++]) & 0xFFFF;
      x4 = ideaMul(x4, z[k++]);
      int t0 = ideaMul(x1 ^ x3, z[k++]);
      int t1 = ideaMul(((x2 ^ x4) + t0) & 0xFFFF, z[k++]);
      t0 = (t0 + t1) & 0xFFFF;
      x1 ^= t1;
      x4 ^= t0;
      int swap = x2 ^ t0;
      x2 = x3 ^ t1;
      x3 = swap;
    }
    int y1 = ideaMul(x1, z[48]);
    int y2 = (x3 + z[49]) & 0xFFFF; // the output transformation undoes the last round's swap
    int y3 = (x2 + z[50]) & 0xFFFF;
    int y4 = ideaMul(x4, z[51]);
    out[off] = (byte) (y1 >>> 8);
    out[off + 1] = (byte) y1;
    out[off + 2] = (byte) (y2 >>> 8);
    out[off + 3] = (byte) y2;
    out[off + 4] = (byte) (y3 >>> 8);
    out[off + 5] = (byte) y3;
    out[off + 6] = (byte) (y4 >>> 8);
    out[off + 7] = (byte) y4;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // montecarlo: independent random-walk tasks with task-confined objects.

  /** xorshift64* generator with a cached second Gaussian (Marsaglia's polar method). */
  static final class Rng {
    long state;
    boolean haveSpare;
    double spare;

    Rng(long seed) {
      state = seed == 0 ? 0x9E3779B97F4A7C15L : seed;
    }

    long nextLong() {
      state ^= state >>> 12;
      state ^= state << 25;
      state ^= state >>> 27;
      return state * 0x2545F4914F6CDD1DL;
    }

    double nextDouble() {
      return (nextLong() >>> 11) * 0x1.0p-53;
    }

    double nextGaussian() {
      if (haveSpare) {
        haveSpare = false;
        return spare;
      }
      double u;
      double v;
      double s;
      do {
        u = 2 * nextDouble() - 1;
        v = 2 * nextDouble() - 1;
        s = u * u + v * v;
      } while (s >= 1 || s == 0);
      double m = Math.sqrt(-2 * StrictMath.log(s) / s);
      spare = v * m;
      haveSpare = true;
      return u * m;
    }
  }

  /** A price path: geometric Brownian motion sampled at {@code prices.length - 1} steps. */
  static final class Path {
    final double drift;
    final double volatility;
    final double dt;
    final double[] prices;

    Path(double start, double drift, double volatility, double dt, int steps) {
      this.drift = drift;
      this.volatility = volatility;
      this.dt = dt;
      this.prices = new double[steps + 1];
      this.prices[0] = start;
    }

    void simulate(Rng rng) {
      for (int s = 1; s < prices.length; s++) {
        double z = rng.nextGaussian();
        prices[s] = prices[s - 1]
            * StrictMath.exp((drift - 0.5 * volatility * volatility) * dt + volatility * Math.sqrt(dt) * z);
      }
    }

    double mean() {
      double sum = 0;
      for (double p : prices) {
        sum += p;
      }
      return sum / prices.length;
    }

    /** The volatility estimated back from the path's log returns. */
    double estimatedVolatility() {
      int n = prices.length - 1;
      double sum = 0;
      double sumSq = 0;
      for (int s = 1; s <= n; s++) {
        double r = StrictMath.log(prices[s] / prices[s - 1]);
        sum += r;
        sumSq += r * r;
      }
      double mean = sum / n;
      return Math.sqrt((sumSq / n - mean * mean) / dt);
    }
  }

  static final class Result {
    final double asianPayoff;
    final double estimatedVolatility;

    Result(double asianPayoff, double estimatedVolatility) {
      this.asianPayoff = asianPayoff;
      this.estimatedVolatility = estimatedVolatility;
    }
  }

  static String montecarlo(int threads, int taskCount, int steps) throws Exception {
    List<Callable<Result>> tasks = new ArrayList<>();
    for (int k = 0; k < taskCount; k++) {
      int task = k;
      tasks.add(() -> {
        Rng rng = new Rng(mix(0x5EED0000L + task));
        Path path = new Path(100, 0.02 + 0.01 * (task % 5), 0.1 + 0.05 * (task % 4), 1.0 / steps, steps);
        path.simulate(rng);
        return new Result(Math.max(path.mean() - 100, 0), path.estimatedVolatility());
      });
    }
    double sum = 0;
    for (Result r : runTasks(threads, tasks)) {
      sum += r.asianPayoff + r.estimatedVolatility;
    }
    return Double.toString(sum);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // lufact: LU factorisation with partial pivoting, one barrier per elimination step.

  static String lufact(int threads, int n) throws Exception {
    double[][] a = new double[n][n]; // a[j][i] is A(i, j): column-oriented, like dgefa
    SplittableRandom random = new SplittableRandom(99);
    for (double[] column : a) {
      for (int i = 0; i < n; i++) {
        column[i] = random.nextDouble() - 0.5;
      }
    }
    double[] b = new double[n];
    for (double[] column : a) {
      for (int i = 0; i < n; i++) {
        b[i] += column[i];
      }
    }
    int[] pivot = new int[n];
    int[] step = {0}; // the step whose pivot column is ready; written only by the barrier action
    luPivot(a, pivot, 0);
    CyclicBarrier barrier = new CyclicBarrier(threads, () -> {
      step[0]++;
      if (step[0] < n) {
        luPivot(a, pivot, step[0]);
      }
    });
    runThreads(threads, barrier, t -> {
      for (int k = 0; k < n - 1; k++) {
        int first = k + 1 + Math.floorMod(t - (k + 1), threads); // my first column j > k with j % threads == t
        luEliminate(a, k, pivot[k], first, threads);
        barrier.await();
      }
    });
    for (int k = 0; k < n; k++) {
      if (a[k][k] == 0) {
        throw new IllegalStateException("singular matrix at column " + k);
      }
    }
    // dgesl: solve L U x = b in place
    for (int k = 0; k < n - 1; k++) {
      int l = pivot[k];
      double m = b[l];
      if (l != k) {
        b[l] = b[k];
        b[k] = m;
      }
      for (int i = k + 1; i < n; i++) {
        b[i] += m * a[k][i];
      }
    }
    for (int k = n - 1; k >= 0; k--) {
      b[k] /= a[k][k];
      double m = -b[k];
      for (int i = 0; i < k; i++) {
        b[i] += m * a[k][i];
      }
    }
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += b[i] * (i + 1);
    }
    return Double.toString(sum);
  }

  /** Finds the pivot row of column k, moves it to row k and scales the rest of the column by -1/pivot. */
  static void luPivot(double[][] a, int[] pivot, int k) {
    double[] col = a[k];
    int n = col.length;
    int l = k;
    for (int i = k + 1; i < n; i++) {
      if (Math.abs(col[i]) > Math.abs(col[l])) {
        l = i;
      }
    }
    pivot[k] = l;
    if (col[l] == 0) {
      return; // singular: reported after the factorisation
    }
    double p = col[l];
    col[l] = col[k];
    col[k] = p;
    double scale = -1 / p;
    for (int i = k + 1; i < n; i++) {
      col[i] *= scale;
    }
  }

  /** Step k for the columns first, first + stride, ...: swap rows k and l, add multiples of column k. */
  static void luEliminate(double[][] a, int k, int l, int first, int stride) {
    double[] colK = a[k];
    int n = colK.length;
    for (int j = first; j < n; j += stride) {
      double[] colJ = a[j];
      double m = colJ[l];
      if (l != k) {
        colJ[l] = colJ[k];
        colJ[k] = m;
      }
      for (int i = k + 1; i < n; i++) {
        colJ[i] += m * colK[i];
      }
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // moldyn: Lennard-Jones molecular dynamics with per-partition force arrays.

  static final class Particle {
    double x;
    double y;
    double z;
    double vx;
    double vy;
    double vz;
    double fx;
    double fy;
    double fz;
  }

  static final int MD_PARTITIONS = 32;

  static String moldyn(int threads, int cells, int steps) throws Exception {
    int n = 4 * cells * cells * cells;
    double density = 0.8442;
    double temperature = 0.722;
    double dt = 0.004;
    double cutoff2 = 2.5 * 2.5;
    double cell = StrictMath.cbrt(4 / density);
    double side = cells * cell;
    double[][] basis = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
    Particle[] ps = new Particle[n];
    SplittableRandom random = new SplittableRandom(2024);
    int count = 0;
    for (int ix = 0; ix < cells; ix++) {
      for (int iy = 0; iy < cells; iy++) {
        for (int iz = 0; iz < cells; iz++) {
          for (double[] o : basis) {
            Particle p = new Particle();
            p.x = (ix + o[0]) * cell;
            p.y = (iy + o[1]) * cell;
            p.z = (iz + o[2]) * cell;
            p.vx = random.nextDouble() - 0.5;
            p.vy = random.nextDouble() - 0.5;
            p.vz = random.nextDouble() - 0.5;
            ps[count++] = p;
          }
        }
      }
    }
    double mx = 0;
    double my = 0;
    double mz = 0;
    for (Particle p : ps) {
      mx += p.vx;
      my += p.vy;
      mz += p.vz;
    }
    double kinetic = 0;
    for (Particle p : ps) {
      p.vx -= mx / n;
      p.vy -= my / n;
      p.vz -= mz / n;
      kinetic += 0.5 * (p.vx * p.vx + p.vy * p.vy + p.vz * p.vz);
    }
    double vscale = Math.sqrt(1.5 * n * temperature / kinetic);
    for (Particle p : ps) {
      p.vx *= vscale;
      p.vy *= vscale;
      p.vz *= vscale;
    }

    double[][] forces = new double[MD_PARTITIONS][3 * n]; // forces[p]: partition p's contributions
    double[] potential = new double[MD_PARTITIONS];
    CyclicBarrier barrier = new CyclicBarrier(threads);
    runThreads(threads, barrier, t -> {
      int lo = split(n, threads, t);
      int hi = split(n, threads, t + 1);
      for (int s = 0; s < steps; s++) {
        for (int part = t; part < MD_PARTITIONS; part += threads) {
          potential[part] = mdForces(ps, part, forces[part], side, cutoff2);
        }
        barrier.await();
        for (int i = lo; i < hi; i++) {
          double fx = 0;
          double fy = 0;
          double fz = 0;
          for (double[] f : forces) {
            fx += f[3 * i];
            fy += f[3 * i + 1];
            fz += f[3 * i + 2];
          }
          Particle p = ps[i];
          p.fx = fx;
          p.fy = fy;
          p.fz = fz;
        }
        barrier.await();
        for (int i = lo; i < hi; i++) {
          Particle p = ps[i];
          p.vx += dt * p.fx;
          p.vy += dt * p.fy;
          p.vz += dt * p.fz;
          p.x = wrap(p.x + dt * p.vx, side);
          p.y = wrap(p.y + dt * p.vy, side);
          p.z = wrap(p.z + dt * p.vz, side);
        }
        barrier.await();
      }
    });
    double energy = 0;
    for (double e : potential) {
      energy += e;
    }
    for (Particle p : ps) {
      energy += 0.5 * (p.vx * p.vx + p.vy * p.vy + p.vz * p.vz);
    }
    return Double.toString(energy);
  }

  /** Pair forces of the particles i with i % MD_PARTITIONS == part against all j > i; returns their potential. */
  static double mdForces(Particle[] ps, int part, double[] f, double side, double cutoff2) {
    Arrays.fill(f, 0);
    double half = side / 2;
    double energy = 0;
    int n = ps.length;
    for (int i = part; i < n; i += MD_PARTITIONS) {
      Particle pi = ps[i];
      double fxi = 0;
      double fyi = 0;
      double fzi = 0;
      for (int j = i + 1; j < n; j++) {
        Particle pj = ps[j];
        double dx = minimumImage(pi.x - pj.x, half, side);
        double dy = minimumImage(pi.y - pj.y, half, side);
        double dz = minimumImage(pi.z - pj.z, half, side);
        double r2 = dx * dx + dy * dy + dz * dz;
        if (r2 < cutoff2) {
          double r2i = 1 / r2;
          double r6i = r2i * r2i * r2i;
          double ff = 48 * r2i * r6i * (r6i - 0.5);
          fxi += ff * dx;
          fyi += ff * dy;
          fzi += ff * dz;
          f[3 * j] -= ff * dx;
          f[3 * j + 1] -= ff * dy;
          f[3 * j + 2] -= ff * dz;
          energy += 4 * r6i * (r6i - 1);
        }
      }
      f[3 * i] += fxi;
      f[3 * i + 1] += fyi;
      f[3 * i + 2] += fzi;
    }
    return energy;
  }

  static double minimumImage(double d, double half, double side) {
    return d > half ? d - side : d < -half ? d + side : d;
  }

  static double wrap(double x, double side) {
    return x < 0 ? x + side : x >= side ? x - side : x;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // raytracer: spheres, two lights, shadows, one reflection bounce, a new Vec for every vector operation.

  static final class Vec {
    final double x;
    final double y;
    final double z;

    Vec(double x, double y, double z) {
      this.x = x;
      this.y = y;
      this.z = z;
    }

    Vec add(Vec o) {
      return new Vec(x + o.x, y + o.y, z + o.z);
    }

    Vec sub(Vec o) {
      return new Vec(x - o.x, y - o.y, z - o.z);
    }

    Vec scale(double s) {
      return new Vec(x * s, y * s, z * s);
    }

    Vec times(Vec o) {
      return new Vec(x * o.x, y * o.y, z * o.z);
    }

    double dot(Vec o) {
      return x * o.x + y * o.y + z * o.z;
    }

    double length() {
      return Math.sqrt(dot(this));
    }

    Vec normalized() {
      return scale(1 / length());
    }
  }

  static final class Ray {
    final Vec origin;
    final Vec dir; // unit length

    Ray(Vec origin, Vec dir) {
      this.origin = origin;
      this.dir = dir;
    }

    Vec at(double t) {
      return origin.add(dir.scale(t));
    }
  }

  static final class Sphere {
    final Vec centre;
    final double radius;
    final Vec colour;
    final double diffuse;
    final double specular;
    final int shininess;
    final double reflectivity;

    Sphere(Vec centre, double radius, Vec colour, double diffuse, double specular, int shininess, double refl) {
      this.centre = centre;
      this.radius = radius;
      this.colour = colour;
      this.diffuse = diffuse;
      this.specular = specular;
      this.shininess = shininess;
      this.reflectivity = refl;
    }

    /** Distance along the ray to the nearest intersection beyond a small epsilon, or infinity. */
    double intersect(Ray ray) {
      Vec oc = centre.sub(ray.origin);
      double b = oc.dot(ray.dir);
      double disc = b * b - oc.dot(oc) + radius * radius;
      if (disc < 0) {
        return Double.POSITIVE_INFINITY;
      }
      double root = Math.sqrt(disc);
      double t = b - root;
      if (t > 1e-6) {
        return t;
      }
      t = b + root;
      return t > 1e-6 ? t : Double.POSITIVE_INFINITY;
    }
  }

  static final class Light {
    final Vec position;
    final double intensity;

    Light(Vec position, double intensity) {
      this.position = position;
      this.intensity = intensity;
    }
  }

  static final class Hit {
    final Sphere sphere;
    final double t;

    Hit(Sphere sphere, double t) {
      this.sphere = sphere;
      this.t = t;
    }
  }

  static final class Scene {
    final Sphere[] spheres = {
      new Sphere(new Vec(0, -1001, 0), 1000, new Vec(0.8, 0.8, 0.7), 0.9, 0.1, 8, 0.15),
      new Sphere(new Vec(0, 0, 1), 1, new Vec(0.9, 0.2, 0.2), 0.7, 0.5, 32, 0.3),
      new Sphere(new Vec(-2.3, -0.2, 2.2), 0.8, new Vec(0.2, 0.8, 0.3), 0.8, 0.3, 16, 0),
      new Sphere(new Vec(2.1, 0.3, 2.0), 1.3, new Vec(0.3, 0.4, 0.9), 0.6, 0.6, 64, 0.5),
      new Sphere(new Vec(0.7, -0.6, -1.0), 0.4, new Vec(0.9, 0.8, 0.2), 0.9, 0.4, 16, 0),
    };
    final Light[] lights = {
      new Light(new Vec(-5, 6, -4), 0.8),
      new Light(new Vec(4, 3, -6), 0.5),
    };
    final Vec ambient = new Vec(0.1, 0.1, 0.12);
    final Vec background = new Vec(0.05, 0.07, 0.15);
    final Vec white = new Vec(1, 1, 1);

    Hit nearest(Ray ray) {
      Hit best = null;
      for (Sphere s : spheres) {
        double t = s.intersect(ray);
        if (t < Double.POSITIVE_INFINITY && (best == null || t < best.t)) {
          best = new Hit(s, t);
        }
      }
      return best;
    }

    boolean shadowed(Ray ray, double distance) {
      for (Sphere s : spheres) {
        if (s.intersect(ray) < distance) {
          return true;
        }
      }
      return false;
    }

    Vec trace(Ray ray, int depth) {
      Hit hit = nearest(ray);
      if (hit == null) {
        return background;
      }
      Sphere s = hit.sphere;
      Vec point = ray.at(hit.t);
      Vec normal = point.sub(s.centre).normalized();
      Vec colour = s.colour.times(ambient);
      for (Light light : lights) {
        Vec toLight = light.position.sub(point);
        double distance = toLight.length();
        Vec l = toLight.scale(1 / distance);
        double cos = normal.dot(l);
        if (cos <= 0 || shadowed(new Ray(point, l), distance)) {
          continue;
        }
        colour = colour.add(s.colour.scale(s.diffuse * cos * light.intensity));
        Vec reflected = normal.scale(2 * cos).sub(l);
        double rv = -reflected.dot(ray.dir);
        if (rv > 0) {
          double spec = 1;
          for (int e = 0; e < s.shininess; e++) {
            spec *= rv;
          }
          colour = colour.add(white.scale(s.specular * spec * light.intensity));
        }
      }
      if (depth < 1 && s.reflectivity > 0) {
        Vec dir = ray.dir.sub(normal.scale(2 * ray.dir.dot(normal)));
        colour = colour.add(trace(new Ray(point, dir), depth + 1).scale(s.reflectivity));
      }
      return colour;
    }
  }

  static void renderRow(Scene scene, Vec eye, int[] image, int side, int y) {
    for (int x = 0; x < side; x++) {
      double u = 2 * (x + 0.5) / side - 1;
      double v = 1 - 2 * (y + 0.5) / side;
      Vec dir = new Vec(u, v - 0.2, 1.8).normalized();
      Vec c = scene.trace(new Ray(eye, dir), 0);
      image[y * side + x] = channel(c.x) << 16 | channel(c.y) << 8 | channel(c.z);
    }
  }

  static int channel(double c) {
    return (int) (Math.min(1, Math.max(0, c)) * 255 + 0.5);
  }

  static String raytracer(int threads, int side) throws Exception {
    int[] image = new int[side * side];
    Scene scene = new Scene();
    Vec eye = new Vec(0, 1, -6);
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int first = t;
      tasks.add(() -> {
        for (int y = first; y < side; y += threads) {
          renderRow(scene, eye, image, side, y);
        }
        return null;
      });
    }
    runTasks(threads, tasks);
    long sum = 0;
    for (int px : image) {
      sum += px;
    }
    return Long.toString(sum);
  }
}
