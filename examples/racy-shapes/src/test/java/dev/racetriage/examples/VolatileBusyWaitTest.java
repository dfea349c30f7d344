package dev.racetriage.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class VolatileBusyWaitTest {
  @Test
  void consumerSeesTheProducedSum() throws Throwable {
    VolatileBusyWait shared = new VolatileBusyWait();
    Concurrently.run(() -> shared.produce(1000), () -> assertEquals(500_500L, shared.awaitResult()));
  }
}
