package dev.racetriage.corpus;

/**
 * A buffer of samples recorded and snapshotted with {@code System.arraycopy} and no lock: both ends of the race are
 * inside the JDK's native copy (the agent checks them as ranges at the two call sites).
 *
 * <p>Racy field: {@code samples[]} — destructive: a snapshot taken after another thread recorded may copy any element
 * the JMM lets it read, the initial 0s included.
 */
public final class SampleBuffer {
  private final int[] samples;

  public SampleBuffer(int size) {
    samples = new int[size];
  }

  public void record(int[] values) {
    System.arraycopy(values, 0, samples, 0, Math.min(values.length, samples.length));
  }

  public int[] snapshot() {
    int[] copy = new int[samples.length];
    System.arraycopy(samples, 0, copy, 0, copy.length);
    return copy;
  }
}
