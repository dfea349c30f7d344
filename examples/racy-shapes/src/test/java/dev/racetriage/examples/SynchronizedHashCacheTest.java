package dev.racetriage.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SynchronizedHashCacheTest {
  @Test
  void everyThreadGetsTheStringHash() throws Throwable {
    SynchronizedHashCache cache = new SynchronizedHashCache("racetriage");
    int expected = "racetriage".hashCode();
    Concurrently.run(
        () -> assertEquals(expected, cache.hashCode()),
        () -> assertEquals(expected, cache.hashCode()),
        () -> assertEquals(expected, cache.hashCode()));
  }
}
