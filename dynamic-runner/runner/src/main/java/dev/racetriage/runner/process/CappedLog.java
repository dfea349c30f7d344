package dev.racetriage.runner.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A process's output kept within a bound: the first {@code head} bytes go to the file as they come (so a log can be
 * read while the process runs), the last {@code tail} bytes are held in a ring and written after a marker line saying
 * how much was left out. A test that prints 50 MB leaves about {@code head + tail} bytes, not 50 MB, in
 * {@code .racetriage/work}.
 */
public final class CappedLog extends OutputStream {
  /** What a test JVM or a build may leave in its log: the first and the last megabyte. */
  public static final int DEFAULT_HEAD = 1 << 20;
  public static final int DEFAULT_TAIL = 1 << 20;

  private final OutputStream file;
  private final long head;
  private final byte[] ring;
  private long written;
  private long dropped;
  private int ringStart;
  private int ringSize;
  private boolean closed;

  public CappedLog(Path log, long head, int tail) throws IOException {
    this.file = Files.newOutputStream(log, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE);
    this.head = head;
    this.ring = new byte[tail];
  }

  public static CappedLog standard(Path log) throws IOException {
    return new CappedLog(log, DEFAULT_HEAD, DEFAULT_TAIL);
  }

  /** Copies {@code in} into this log until its end, then closes both. */
  public void copyFrom(InputStream in) throws IOException {
    try (this; in) {
      byte[] buffer = new byte[8192];
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        write(buffer, 0, n);
      }
    }
  }

  @Override
  public synchronized void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    if (written < head) {
      int direct = (int) Math.min(len, head - written);
      file.write(b, off, direct);
      file.flush();
      written += direct;
      off += direct;
      len -= direct;
    }
    for (int i = 0; i < len; i++) {
      if (ring.length == 0) {
        dropped++;
        continue;
      }
      if (ringSize == ring.length) {
        ring[ringStart] = b[off + i];
        ringStart = (ringStart + 1) % ring.length;
        dropped++;
      } else {
        ring[(ringStart + ringSize) % ring.length] = b[off + i];
        ringSize++;
      }
    }
  }

  /** Bytes of output that were not kept (between the head and the tail). */
  public synchronized long dropped() {
    return dropped;
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) return;
    closed = true;
    try {
      if (dropped > 0) {
        file.write(("\n[racetriage: " + dropped + " bytes of output left out here; the first " + head
            + " and the last " + ring.length + " bytes are kept]\n").getBytes(StandardCharsets.UTF_8));
      }
      int first = Math.min(ringSize, ring.length - ringStart);
      file.write(ring, ringStart, first);
      file.write(ring, 0, ringSize - first);
    } finally {
      file.close();
    }
  }
}
