package dev.racetriage.corpus;

/**
 * A racy statistic nobody reads (JUMBLE §6, mtrt's {@code RayTracer.threadCount}): the parent counts the runners it
 * creates, each runner decrements the count without synchronisation when it finishes. Lost decrements corrupt the
 * count, but nothing uses it; the image checksum is what the program produces.
 *
 * <p>Racy field: {@code threadCount} — benign.
 */
public final class Renderer {
  int threadCount;
  private final long[] rowChecksums;

  public Renderer(int rows) {
    this.rowChecksums = new long[rows];
  }

  /** Renders every row on {@code runners} threads and returns the image checksum. */
  public long render(int runners) throws InterruptedException {
    Thread[] threads = new Thread[runners];
    for (int r = 0; r < runners; r++) {
      int first = r;
      threadCount++;
      threads[r] = new Thread(() -> {
        for (int row = first; row < rowChecksums.length; row += runners) {
          rowChecksums[row] = shade(row);
        }
        threadCount--; // racy and lossy; never read for the result
      }, "runner-" + r);
    }
    for (Thread t : threads) t.start();
    for (Thread t : threads) t.join();
    long checksum = 0;
    for (long c : rowChecksums) checksum += c;
    return checksum;
  }

  static long shade(int row) {
    long c = 0;
    for (int col = 0; col < 200; col++) {
      c += (row * 31L + col * 17L) % 255;
    }
    return c;
  }
}
