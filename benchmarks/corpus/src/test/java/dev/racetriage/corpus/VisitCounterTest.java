package dev.racetriage.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * One thread visits and flushes, the other refreshes and visits after {@link Concurrently#SETTLE_MILLIS}, so the
 * flush usually ends before the refresh begins (the run in which happens-before sees no race on {@code visits}).
 */
class VisitCounterTest {
  @Test
  void everyVisitIsCounted() throws Throwable {
    VisitCounter counter = new VisitCounter();
    Concurrently.run(() -> {
      counter.visitAndFlush();
      counter.visitLocked();
    }, Concurrently.settled(() -> {
      counter.refreshAndVisit();
      counter.visitLocked();
    }));
    assertEquals(2, counter.visits());
    assertEquals(2, counter.lockedVisits());
  }
}
