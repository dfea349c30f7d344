package dev.racetriage.corpus;

/**
 * Non-atomic long writes (JLS 17.7): a plain {@code long} may be written and read as two 32-bit halves, so a reader
 * can combine the halves of two different writes. Every value the writer stores has equal halves; a torn read does
 * not. (64-bit HotSpot never tears, so plain testing cannot see it.)
 *
 * <p>Racy field: {@code stamp} — destructive.
 */
public final class TornStamp {
  long stamp;

  public void writeStamps(int count) {
    for (int k = 1; k <= count; k++) {
      stamp = k * 0x1_0000_0001L;
    }
  }

  /** Reads the stamp {@code count} times; returns the first value whose halves differ, or 0 if none did. */
  public long firstTornRead(int count) {
    for (int i = 0; i < count; i++) {
      long seen = stamp;
      if ((int) (seen >>> 32) != (int) seen) return seen;
    }
    return 0;
  }
}
