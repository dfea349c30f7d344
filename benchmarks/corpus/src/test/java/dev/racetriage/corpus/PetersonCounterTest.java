package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Peterson's lock without volatile: two threads increment inside the lock, each at least 100 times and for 10 ms
 * from a common start, so they overlap even when one is scheduled late; no increment may be lost.
 */
class PetersonCounterTest {
  @Test
  void noIncrementIsLost() throws Throwable {
    PetersonCounter counter = new PetersonCounter();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10);
    int[] done = new int[2];
    Concurrently.together(() -> done[0] = counter.increment(0, 100, deadline),
        () -> done[1] = counter.increment(1, 100, deadline));
    assertEquals(done[0] + done[1], counter.count());
  }
}
