package dev.racetriage.corpus;

/**
 * RELAXER Figure 2 (message passing through a plain flag): the writer sets {@code x}, {@code y}, then {@code done};
 * the reader, if it sees {@code done}, requires {@code x != 0} and reads {@code y} into a local nobody uses. Under
 * PSO (and the JMM) the reader can see {@code done == 1} and {@code x == 0}.
 *
 * <p>Racy fields: {@code x} — destructive (the ERROR of line 6); {@code y} — benign (its value is never used);
 * {@code done} — benign (a stale 0 only skips the block).
 */
public final class MessagePassing {
  int x, y, done;

  public void write() {
    x = 1;
    y = 1;
    done = 1;
  }

  /** The reader of Figure 2; throws where the figure says ERROR. Returns whether it saw the flag. */
  public boolean read() {
    if (done == 1) {
      if (x == 0) {
        throw new IllegalStateException("ERROR: done was set but x is still 0");
      }
      int local = y;
      return local >= 0;
    }
    return false;
  }
}
