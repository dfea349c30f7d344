package dev.racetriage.corpus;

/**
 * {@link SampleBuffer} with its copies (and a reset by {@code Arrays.fill}) under the buffer's monitor: race-free (no row in {@code expected.tsv}; a
 * race reported here is a false one).
 */
public final class LockedSampleBuffer {
  private final int[] samples;

  public LockedSampleBuffer(int size) {
    samples = new int[size];
  }

  public synchronized void record(int[] values) {
    System.arraycopy(values, 0, samples, 0, Math.min(values.length, samples.length));
  }

  public synchronized void reset() {
    java.util.Arrays.fill(samples, 0);
  }

  public synchronized int[] snapshot() {
    return samples.clone();
  }
}
