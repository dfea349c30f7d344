package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Peterson's lock without volatile: 2 × 100 increments inside the lock, started together, must give 200. */
class PetersonCounterTest {
  @Test
  void noIncrementIsLost() throws Throwable {
    PetersonCounter counter = new PetersonCounter();
    Concurrently.together(() -> counter.increment(0, 100), () -> counter.increment(1, 100));
    assertEquals(200, counter.count());
  }
}
