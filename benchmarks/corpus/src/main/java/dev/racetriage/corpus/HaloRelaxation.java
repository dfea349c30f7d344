package dev.racetriage.corpus;

/**
 * The JGF {@code sor} barrier bug (JUMBLE §6): two threads relax the two halves of a 1-D rod (Jacobi steps) and
 * exchange their edge cells through the plain array {@code halo}, separated by a barrier made of the plain counters
 * {@code sync} — {@code sync[id]++; while (sync[other] < sync[id]) spin}. Under sequential consistency the barrier
 * makes every step see the neighbour's edge of the step before; but a plain-array barrier creates no happens-before
 * edge, so a thread may read an older edge (or 0.0) after it, and the rod comes out wrong.
 *
 * <p>Racy fields: {@code halo[]} — destructive (a stale edge changes the result); {@code sync[]} — benign (the
 * counters only grow: a stale one is smaller and only prolongs the spin).
 */
public final class HaloRelaxation {
  final long[] sync = new long[2];
  /** Edges of the step with even number at [0] (left half) and [1] (right half); odd steps at [2] and [3]. */
  final double[] halo = new double[4];
  private final double[][] halves;
  private final double leftEnd, rightEnd;

  public HaloRelaxation(int cellsPerHalf, double leftEnd, double rightEnd) {
    this.halves = new double[][] {new double[cellsPerHalf], new double[cellsPerHalf]};
    this.leftEnd = leftEnd;
    this.rightEnd = rightEnd;
  }

  /** Runs {@code steps} Jacobi steps on two threads and returns the rod, left half then right half. */
  public double[] relax(int steps) throws InterruptedException {
    Thread left = new Thread(() -> relaxHalf(0, steps), "sor-0");
    Thread right = new Thread(() -> relaxHalf(1, steps), "sor-1");
    left.start();
    right.start();
    left.join();
    right.join();
    int n = halves[0].length;
    double[] rod = new double[2 * n];
    System.arraycopy(halves[0], 0, rod, 0, n);
    System.arraycopy(halves[1], 0, rod, n, n);
    return rod;
  }

  private void relaxHalf(int id, int steps) {
    double[] cells = halves[id];
    double[] next = new double[cells.length];
    int last = cells.length - 1;
    for (int step = 0; step < steps; step++) {
      int slot = (step % 2) * 2;
      halo[slot + id] = id == 0 ? cells[last] : cells[0];
      barrier(id);
      double neighbour = halo[slot + 1 - id]; // racy: may be an older step's edge
      double before = id == 0 ? leftEnd : neighbour;
      double after = id == 0 ? neighbour : rightEnd;
      for (int i = 0; i <= last; i++) {
        double l = i == 0 ? before : cells[i - 1];
        double r = i == last ? after : cells[i + 1];
        next[i] = (l + r) / 2;
      }
      System.arraycopy(next, 0, cells, 0, cells.length);
    }
  }

  private void barrier(int id) {
    sync[id]++;
    while (sync[1 - id] < sync[id]) {
      Thread.yield();
    }
  }

  /** The same steps on one thread, for the test's expected result. */
  public static double[] relaxSequentially(int cellsPerHalf, double leftEnd, double rightEnd, int steps) {
    int n = 2 * cellsPerHalf;
    double[] rod = new double[n];
    double[] next = new double[n];
    for (int step = 0; step < steps; step++) {
      for (int i = 0; i < n; i++) {
        double l = i == 0 ? leftEnd : rod[i - 1];
        double r = i == n - 1 ? rightEnd : rod[i + 1];
        next[i] = (l + r) / 2;
      }
      System.arraycopy(next, 0, rod, 0, n);
    }
    return rod;
  }
}
