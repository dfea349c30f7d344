package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Unsafe JDK containers shared by two threads: a list that loses appends, a static date format that mixes two dates, a
 * cache whose lost entries are recomputed (more in {@link TreeMapAndBuilderTest}).
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

  @Test
  void cachedNamesAreTheComputedOnes() throws Throwable {
    NameCache cache = new NameCache();
    Concurrently.Body lookUps = () -> {
      for (int round = 0; round < 3; round++) {
        for (int id = 0; id < 10; id++) assertEquals("item-" + id, cache.nameOf(id));
      }
    };
    Concurrently.run(lookUps, lookUps);
  }
}
