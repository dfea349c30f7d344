package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Unsynchronised containers shared safely by two workers: nothing races (no row in expected.tsv). */
class SafeContainersTest {
  @Test
  void guardedConfinedAndReadOnlyContainersKeepEveryEntry() throws Throwable {
    SafeContainers shared = new SafeContainers();
    Concurrently.run(() -> assertEquals("20:40:1970-01-01", shared.work(0, 20)),
        () -> assertEquals("20:40:1970-01-01", shared.work(1, 20)));
    assertEquals(80, shared.ranked());
  }
}
