package dev.racetriage.agent.instrument;

import static dev.racetriage.agent.instrument.InstrumentedRun.call;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.racetriage.agent.instrument.fixtures.SharedContainers;
import dev.racetriage.agent.jumble.FieldStats;
import dev.racetriage.agent.jumble.JumbleConfig;
import dev.racetriage.agent.runtime.ContainerTrials;
import java.lang.reflect.Field;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * Trials of container keys on instrumented code (jumble mode, {@code pkg.Cls.log{}}): the container held in the
 * field is under trial, every modelled call on it is counted, and a call that starts while another thread's call on
 * it runs (one of them a mutator) is an overlap — the trial's "stale read". Overlaps are made deterministic here by
 * entering a call from a second thread by hand and holding it open.
 */
class ContainerTrialsTest {
  private static final String CONTAINERS = InstrumentedRun.FIXTURES + "SharedContainers.";

  private static InstrumentedRun run(String heuristic, String key) {
    InstrumentedRun run = new InstrumentedRun(List.of(key), JumbleConfig.of("sc", 42), new int[0]);
    run.jumble().startedAs(heuristic);
    return run;
  }

  private static FieldStats stats(InstrumentedRun run) {
    return run.jumble().stats().get(0);
  }

  private static Object heap(Object o, String field) throws Exception {
    Field f = o.getClass().getDeclaredField(field);
    f.setAccessible(true);
    return f.get(o);
  }

  @Test
  void callsOnTheContainerHeldInTheFieldAreCountedAndAnOverlappingCallIsAnOverlap() throws Throwable {
    try (InstrumentedRun run = run("sc", CONTAINERS + "log{}")) {
      Class<?> c = run.load(SharedContainers.class);
      Object shared = call(c, "create");
      call(c, "add", shared, "a");
      call(c, "add", shared, "b");
      assertEquals(2, call(c, "size", shared));
      call(c, "put", shared, "k"); // another container: not under trial
      FieldStats s = stats(run);
      assertEquals(CONTAINERS + "log{}", s.fieldKey());
      assertEquals(3, s.reads(), "two adds and a size on the log");
      assertEquals(0, s.staleReads(), "one thread: no call overlapped another");

      Object log = heap(shared, "log");
      CountDownLatch inside = new CountDownLatch(1);
      CountDownLatch done = new CountDownLatch(1);
      Thread other = new Thread(() -> {
        ContainerTrials.enter(log, 1, -1); // another thread's add, still running
        inside.countDown();
        try {
          done.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        ContainerTrials.exit(log);
      });
      other.start();
      inside.await();
      assertEquals(2, call(c, "size", shared));
      assertEquals(1, stats(run).staleReads(), "the size ran while the other thread's add did: an overlap");
      done.countDown();
      other.join();
      assertEquals(2, call(c, "size", shared));
      assertEquals(1, stats(run).staleReads(), "the add has ended: no overlap");
      assertEquals(6, stats(run).reads(), "3 + the hand-made add + two sizes");
    }
  }

  /**
   * The control also counts a call that interleaves: its thread called before, the last call (a mutator) came from
   * another thread and is not ordered before it — also when that thread has ended, if nobody joined it (the corpus's
   * builder cut by a worker that ran all its appends while the other was descheduled). A thread joined before the call
   * (its end acquired through {@code Hooks.joinReturned}, as the instrumented {@code Thread.join} does) is ordered
   * with it. Under perturb only overlaps count.
   */
  @Test
  void underTheControlACallAfterAnotherThreadsUnorderedMutationInterleaves() throws Throwable {
    for (String heuristic : List.of("sc", ContainerTrials.PERTURB)) {
      try (InstrumentedRun run = run(heuristic, CONTAINERS + "log{}")) {
        Class<?> c = run.load(SharedContainers.class);
        Object shared = call(c, "create");
        call(c, "add", shared, "a");
        Object log = heap(shared, "log");
        CountDownLatch added = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Thread other = new Thread(() -> {
          ContainerTrials.enter(log, 1, -1); // another thread's whole add, before ours: no overlap
          ContainerTrials.exit(log);
          added.countDown();
          try {
            done.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
        other.start();
        added.await();
        call(c, "add", shared, "b");
        int interleaving = heuristic.equals("sc") ? 1 : 0;
        assertEquals(interleaving, stats(run).staleReads(), heuristic + ": a, the other thread's add, b");
        call(c, "add", shared, "c");
        assertEquals(interleaving, stats(run).staleReads(), heuristic + ": b then c are this thread's own");
        done.countDown();
        other.join();

        Thread ended = new Thread(() -> {
          ContainerTrials.enter(log, 1, -1);
          ContainerTrials.exit(log);
        });
        ended.start();
        while (ended.isAlive()) {
          Thread.onSpinWait(); // it ends, but nothing here orders its add before ours
        }
        call(c, "add", shared, "d");
        assertEquals(2 * interleaving, stats(run).staleReads(), heuristic + ": an ended thread's add, never joined");

        Thread joined = new Thread(() -> {
          ContainerTrials.enter(log, 1, -1);
          ContainerTrials.exit(log);
        });
        dev.racetriage.agent.runtime.Hooks.threadStarting(joined);
        joined.start();
        joined.join();
        dev.racetriage.agent.runtime.Hooks.joinReturned(joined);
        call(c, "add", shared, "e");
        assertEquals(2 * interleaving, stats(run).staleReads(),
            heuristic + ": the last add came from a thread joined since");
      }
    }
  }

  @Test
  void twoReadersDoNotOverlapAndANewRunStartsWithFreshCounters() throws Throwable {
    try (InstrumentedRun run = run("sc", CONTAINERS + "log{}")) {
      Class<?> c = run.load(SharedContainers.class);
      Object shared = call(c, "create");
      call(c, "add", shared, "a");
      Object log = heap(shared, "log");
      ContainerTrials.enter(log, 0, -1);
      Thread reader = new Thread(() -> ContainerTrials.enter(log, 0, -1)); // never exits: its thread ends
      reader.start();
      reader.join();
      assertEquals(0, stats(run).staleReads(), "two readers of a container do not conflict");
      ContainerTrials.exit(log);
      run.jumble().beginRun("sc", 7, false);
      assertEquals(0, stats(run).reads(), "a new run: fresh counters, the container is named again when seen");
      call(c, "add", shared, "b");
      assertEquals(1, stats(run).reads());
    }
  }

  @Test
  void aContainerNoFieldHeldIsTriedAfterTheMethodOfItsCalls() throws Throwable {
    try (InstrumentedRun run = run("sc", CONTAINERS + "addTo(){}")) {
      Class<?> c = run.load(SharedContainers.class);
      Object set = call(c, "newSet");
      call(c, "addTo", set, "x");
      call(c, "addTo", set, "y");
      assertEquals(2, stats(run).reads());
    }
  }

  @Test
  void perturbedCallsOfOneThreadStillRunAndAreCounted() throws Throwable {
    try (InstrumentedRun run = run(ContainerTrials.PERTURB, CONTAINERS + "log{}")) {
      Class<?> c = run.load(SharedContainers.class);
      Object shared = call(c, "create");
      for (int i = 0; i < 20; i++) {
        call(c, "add", shared, "line" + i);
      }
      assertEquals(20, call(c, "size", shared));
      assertEquals("perturb", run.jumble().heuristic());
      assertEquals(21, stats(run).reads());
      assertEquals(0, stats(run).staleReads());
    }
  }
}
