package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Unsafe JDK containers shared by two threads: a list that loses appends, a cache whose lost entries are recomputed. */
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
