package dev.racetriage.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HashCacheTest {
  @Test
  void everyThreadGetsTheStringHash() throws Throwable {
    HashCache cache = new HashCache("racetriage");
    int expected = "racetriage".hashCode();
    Concurrently.run(
        () -> assertEquals(expected, cache.hashCode()),
        () -> assertEquals(expected, cache.hashCode()),
        () -> assertEquals(expected, cache.hashCode()));
  }
}
