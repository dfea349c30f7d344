package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A job counted by its producer after the hand-off and by its consumer after the take (the consumer counts a settle
 * later, so the producer's update is usually done first in real time: adversarial memory can serve the count from
 * before it).
 */
class LateJobCounterTest {
  @Test
  void bothAttemptsAreCounted() throws Throwable {
    LateJobCounter counter = new LateJobCounter();
    LateJobCounter.Job[] job = new LateJobCounter.Job[1];
    Concurrently.run(() -> job[0] = counter.produce(), Concurrently.settled(counter::consume));
    assertEquals(2, job[0].attempts());
  }
}
