package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Unsafe JDK containers shared by two threads: a list that loses appends and a static date format that mixes two
 * dates. Both races are real and destructive, but their windows are a few nanoseconds inside the JDK's code, so even
 * perturbed runs fail only in about one run of eight to ten — at or below the benign rule's 15 % bound, so a triage
 * may also say benign ("failure rate below 15 %"), which is then a true statement about the test. More, with
 * verdicts a triage reaches every time, in {@link UnsafeContainersTest}.
 */
class ContainersTest {
  @Test
  void everyTagIsKept() throws Throwable {
    TagLog log = new TagLog();
    Concurrently.run(() -> {
      for (int i = 0; i < 50; i++) log.tag("a" + i);
    }, () -> {
      for (int i = 0; i < 50; i++) log.tag("b" + i);
    });
    assertEquals(100, log.count());
  }

  @Test
  void everyStampShowsItsOwnDate() throws Throwable {
    java.text.SimpleDateFormat mine = new java.text.SimpleDateFormat("yyyy-MM-dd HH:mm");
    mine.setTimeZone(java.util.TimeZone.getTimeZone("UTC"));
    long day = 86_400_000L;
    Concurrently.Body early = () -> {
      for (int i = 0; i < 20; i++) {
        long t = i * day + i * 60_000L;
        assertEquals(expected(mine, t), DateStamps.stamp(t));
      }
    };
    Concurrently.Body late = () -> {
      for (int i = 0; i < 20; i++) {
        long t = 20_000L * day + i * 3_600_000L;
        assertEquals(expected(mine, t), DateStamps.stamp(t));
      }
    };
    Concurrently.run(early, late);
  }

  private static String expected(java.text.SimpleDateFormat mine, long t) {
    synchronized (mine) {
      return mine.format(new java.util.Date(t));
    }
  }
}
