package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.instrument.fixtures.MonitorExits;
import dev.racetriage.agent.instrument.fixtures.Publications;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Each test orders two threads only through the synchronisation under test (the first thread's end is awaited
 * without a happens-before edge), so a missing event shows up as a reported race.
 */
class SynchronisationEventsTest {
  private static final String PKG = InstrumentedRun.FIXTURES;

  @Test
  void synchronizedMethodLeftByAnExceptionStillReleases() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(MonitorExits.class);
      Thread writer = run.start(() -> InstrumentedRun.call(c, "writeInMethodThenThrow", 41));
      InstrumentedRun.awaitEndWithoutEdge(writer);
      AtomicReference<Object> seen = new AtomicReference<>();
      run.join(run.start(() -> seen.set(InstrumentedRun.call(c, "readInMethod"))));
      assertEquals(41, seen.get());
      assertEquals(Set.of(), run.racyFields());
    }
  }

  @Test
  void synchronizedBlockLeftByAnExceptionStillReleases() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(MonitorExits.class);
      Thread writer = run.start(() -> InstrumentedRun.call(c, "writeInBlockThenThrow", 7));
      InstrumentedRun.awaitEndWithoutEdge(writer);
      AtomicReference<Object> seen = new AtomicReference<>();
      run.join(run.start(() -> seen.set(InstrumentedRun.call(c, "readInBlock"))));
      assertEquals(7, seen.get());
      assertEquals(Set.of(), run.racyFields());
    }
  }

  @Test
  void withoutSynchronisationTheSameShapeIsReported() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(MonitorExits.class);
      Thread writer = run.start(() -> InstrumentedRun.call(c, "writeUnguarded", 3));
      InstrumentedRun.awaitEndWithoutEdge(writer);
      run.join(run.start(() -> InstrumentedRun.call(c, "readUnguarded")));
      assertEquals(Set.of(PKG + "MonitorExits.unguarded"), run.racyFields());
    }
  }

  @Test
  void classInitialisationVolatilesAndWaitNotifyPublishWithoutRaces() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(Publications.class);
      AtomicReference<Object> init = new AtomicReference<>();
      AtomicReference<Object> consumed = new AtomicReference<>();
      AtomicReference<Object> mail = new AtomicReference<>();
      Thread reader = run.start(() -> init.set(InstrumentedRun.call(c, "readInitialised")));
      Thread consumer = run.start(() -> consumed.set(InstrumentedRun.call(c, "consumeVolatile")));
      Thread taker = run.start(() -> mail.set(InstrumentedRun.call(c, "take")));
      Thread producer = run.start(() -> {
        InstrumentedRun.call(c, "publishVolatile", 99);
        InstrumentedRun.call(c, "post", "hello");
      });
      for (Thread t : new Thread[] {reader, consumer, taker, producer}) {
        run.join(t);
      }
      assertEquals(9 + 15, init.get());
      assertEquals(99, consumed.get());
      assertEquals("hello", mail.get());
      assertEquals(Set.of(), run.racyFields());
    }
  }

  @Test
  void plainElementsOfAVolatileArrayReferenceRaceUnderTheFieldsName() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(Publications.class);
      Thread writer = run.start(() -> InstrumentedRun.call(c, "writeCell", 5));
      InstrumentedRun.awaitEndWithoutEdge(writer);
      run.join(run.start(() -> InstrumentedRun.call(c, "readCell")));
      assertEquals(Set.of(PKG + "Publications.cells[]"), run.racyFields());
      assertTrue(run.internalErrors() == 0);
    }
  }
}
