package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.instrument.fixtures.BehaviourWorkload;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/** Instrumented code must compute exactly what the original computes. */
class InstrumentedBehaviourTest {

  @Test
  void instrumentedWorkloadReturnsTheSameTraceAsThePlainOne() throws Exception {
    try (InstrumentedRun run = new InstrumentedRun()) {
      String plain = newWorkload(run.loadPlain(BehaviourWorkload.class)).call();
      Class<?> instrumented = run.load(BehaviourWorkload.class);
      assertNotSame(BehaviourWorkload.class, instrumented);
      assertEquals(plain, newWorkload(instrumented).call());
      assertEquals(0, run.internalErrors());
      assertTrue(run.racyFields().isEmpty(), "one thread cannot race: " + run.racyFields());
    }
  }

  @Test
  void repeatedCallsStayIdentical() throws Exception {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Callable<String> instrumented = newWorkload(run.load(BehaviourWorkload.class));
      Callable<String> plain = newWorkload(run.loadPlain(BehaviourWorkload.class));
      for (int k = 0; k < 3; k++) {
        assertEquals(plain.call(), instrumented.call(), "call " + k);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Callable<String> newWorkload(Class<?> c) throws ReflectiveOperationException {
    return (Callable<String>) c.getDeclaredConstructor().newInstance();
  }
}
