package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Non-atomic longs: the reader must never see a stamp made of two writes' halves. */
class TornStampTest {
  @Test
  void stampsAreNeverTorn() throws Throwable {
    TornStamp stamp = new TornStamp();
    long[] torn = new long[1];
    Concurrently.run(() -> stamp.writeStamps(1_000), Concurrently.settled(() -> torn[0] = stamp.firstTornRead(1_000)));
    assertEquals(0L, torn[0], () -> "torn read: 0x" + Long.toHexString(torn[0]));
  }
}
