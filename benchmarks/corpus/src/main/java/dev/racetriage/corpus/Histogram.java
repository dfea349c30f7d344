package dev.racetriage.corpus;

import java.util.Arrays;

/**
 * Histogram bins reset with {@code Arrays.fill} and read with {@code clone()}, unsynchronised: both ends inside the
 * JDK.
 *
 * <p>Racy field: {@code bins[]} — destructive: a clone taken after another thread's fill may read any bin's earlier
 * value.
 */
public final class Histogram {
  private final int[] bins;

  public Histogram(int size) {
    bins = new int[size];
  }

  public void setAll(int count) {
    Arrays.fill(bins, count);
  }

  public int[] bins() {
    return bins.clone();
  }
}
