package dev.racetriage.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class VerboseProgressTest {
  /** One worker meets its slow item first, the other last: the second reads the flag while the first has raised it. */
  @Test
  void everyWorkerSumsItsItemsWhateverTheFlagSays() throws Throwable {
    int n = 20_000;
    int[] slowFirst = new int[n];
    int[] slowLast = new int[n];
    for (int i = 0; i < n; i++) {
      slowFirst[i] = i + 1;
      slowLast[i] = i + 1;
    }
    slowFirst[0] = -slowFirst[0];
    slowLast[n - 1] = -slowLast[n - 1];
    long expected = (long) n * (n + 1) / 2;
    Concurrently.run(
        () -> assertEquals(expected, VerboseProgress.process(slowFirst, new StringBuilder())),
        () -> assertEquals(expected, VerboseProgress.process(slowLast, new StringBuilder())));
  }
}
