package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Unsynchronised containers shared safely by two workers: nothing races (no row in expected.tsv). */
class SafeContainersTest {
  @Test
  void guardedConfinedAndReadOnlyContainersKeepEveryEntry() throws Throwable {
    SafeContainers shared = new SafeContainers();
    String expected = "20:40:5:20:day:1970-01-01:1970-01-01";
    Concurrently.run(() -> assertEquals(expected, shared.work(0, 20)),
        () -> assertEquals(expected, shared.work(1, 20)));
    assertEquals(160, shared.ranked());
  }
}
