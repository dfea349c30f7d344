package dev.racetriage.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BusyWaitTest {
  @Test
  void consumerSeesTheProducedSum() throws Throwable {
    BusyWait shared = new BusyWait();
    Concurrently.run(() -> shared.produce(1000), () -> assertEquals(500_500L, shared.awaitResult()));
  }
}
