package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Races whose both ends are JDK bulk array operations ({@code System.arraycopy} both ways, {@code Arrays.fill} and
 * {@code clone()}), and the locked version of the same buffer, which must not race.
 */
class BulkCopiesTest {
  private static final int[] SAMPLES = {1, 2, 3, 4, 5, 6, 7, 8};

  @Test
  void snapshotSeesTheRecordedSamples() throws Throwable {
    SampleBuffer buffer = new SampleBuffer(SAMPLES.length);
    Concurrently.run(() -> buffer.record(SAMPLES),
        Concurrently.settled(() -> assertArrayEquals(SAMPLES, buffer.snapshot())));
  }

  @Test
  void lockedSnapshotSeesTheRecordedSamples() throws Throwable {
    LockedSampleBuffer buffer = new LockedSampleBuffer(SAMPLES.length);
    Concurrently.run(() -> {
      buffer.reset();
      buffer.record(SAMPLES);
    },
        Concurrently.settled(() -> {
          int[] seen = buffer.snapshot();
          if (seen[0] != 0) { // the lock orders either way: all or nothing of the record
            assertArrayEquals(SAMPLES, seen);
          } else {
            assertArrayEquals(new int[SAMPLES.length], seen);
          }
        }));
  }

  @Test
  void binsReadAfterAResetShowTheReset() throws Throwable {
    Histogram histogram = new Histogram(6);
    int[] expected = new int[6];
    Arrays.fill(expected, 5);
    Concurrently.run(() -> histogram.setAll(5),
        Concurrently.settled(() -> assertArrayEquals(expected, histogram.bins())));
  }
}
