package dev.racetriage.agent.instrument;

import static dev.racetriage.agent.instrument.InstrumentedRun.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.instrument.fixtures.RacyCells;
import dev.racetriage.agent.jumble.FieldStats;
import dev.racetriage.agent.jumble.JumbleConfig;
import dev.racetriage.agent.runtime.JumbleHooks;
import java.lang.reflect.Field;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Jumble mode on real instrumented code: the fixture is loaded through the transformer with some of its fields under
 * trial, a writer thread stores values, and the reading thread is either unordered with it (the writer's end is
 * awaited without an edge, so the READ rule leaves the older values visible) or ordered by a join (only the latest
 * write is visible). Heap values are read by reflection, which the agent does not instrument.
 */
class JumbleModeTest {
  private static final String CELLS = InstrumentedRun.FIXTURES + "RacyCells.";

  private static InstrumentedRun run(String heuristic, int[] indices, String... fields) {
    return new InstrumentedRun(List.of(fields), JumbleConfig.of(heuristic, 42), indices);
  }

  private static Object heap(Object cells, String field) throws Exception {
    Field f = cells.getClass().getDeclaredField(field);
    f.setAccessible(true);
    return f.get(cells);
  }

  /** Runs body on a thread forked with an edge and waits for its end without one. */
  private static void writeUnordered(InstrumentedRun run, InstrumentedRun.ThrowingRunnable body) {
    InstrumentedRun.awaitEndWithoutEdge(run.start(body));
  }

  private static Map<String, FieldStats> stats(InstrumentedRun run) {
    Map<String, FieldStats> byKey = new TreeMap<>();
    for (FieldStats s : run.jumble().stats()) {
      byKey.put(s.fieldKey(), s);
    }
    return byKey;
  }

  @Test
  void anUnorderedReadSeesTheStaleDefaultButTheHeapHoldsTheLatestWrite() throws Throwable {
    try (InstrumentedRun run = run("oldest", new int[0], CELLS + "count")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      writeUnordered(run, () -> call(c, "setCount", cells, 7));
      assertEquals(0, call(c, "getCount", cells), "default@⊥ is still visible: nothing orders the write before");
      assertEquals(7, heap(cells, "count"), "the write happened for real");
      FieldStats s = stats(run).get(CELLS + "count");
      assertEquals(1, s.reads());
      assertEquals(1, s.staleReads());
      assertEquals(1, s.writes());
    }
  }

  @Test
  void beginRunStartsAFreshRunWithNoBufferNoCountersAndItsOwnHeuristic() throws Throwable {
    try (InstrumentedRun run = run("oldest", new int[0], CELLS + "count")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      writeUnordered(run, () -> call(c, "setCount", cells, 7));
      assertEquals(0, call(c, "getCount", cells), "run 1: the stale default");

      run.jumble().beginRun("sc", 5, false);
      assertEquals("sc", run.jumble().heuristic());
      assertEquals(5, run.jumble().seed());
      assertEquals(0, stats(run).get(CELLS + "count").reads(), "the counters are the new run's alone");
      assertEquals(7, call(c, "getCount", cells), "run 2's buffer starts from the heap value: the old 0 is gone");

      run.jumble().beginRun("oldest", 6, false);
      writeUnordered(run, () -> call(c, "setCount", cells, 9));
      assertEquals(7, call(c, "getCount", cells), "run 3: its oldest value is the one at its first access");
      FieldStats s = stats(run).get(CELLS + "count");
      assertEquals(1, s.reads());
      assertEquals(1, s.staleReads());
      assertEquals(1, s.writes());

      assertThrows(IllegalArgumentException.class, () -> run.jumble().beginRun("newest", 1, false));
      assertEquals("oldest", run.jumble().heuristic(), "a bad name leaves the run as it was");
    }
  }

  @Test
  void aJoinHidesTheOlderValues() throws Throwable {
    try (InstrumentedRun run = run("oldest", new int[0], CELLS + "count")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      run.join(run.start(() -> call(c, "setCount", cells, 7)));
      for (int i = 0; i < 5; i++) {
        assertEquals(7, call(c, "getCount", cells), "READ: ⊥ ⊑ K(write) ⊑ C(reader) hides the default");
      }
      assertEquals(0, stats(run).get(CELLS + "count").staleReads());
    }
  }

  @Test
  void sequentiallyConsistentAlwaysReturnsTheLatestWrite() throws Throwable {
    try (InstrumentedRun run = run("sc", new int[0], CELLS + "count", CELLS + "wide", CELLS + "ref")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      writeUnordered(run, () -> {
        call(c, "setCount", cells, 3);
        call(c, "setWide", cells, 5L);
        call(c, "setRef", cells, "x");
      });
      for (int i = 0; i < 20; i++) {
        assertEquals(3, call(c, "getCount", cells));
        assertEquals(5L, call(c, "getWide", cells));
        assertEquals("x", call(c, "getRef", cells));
      }
      for (FieldStats s : stats(run).values()) {
        assertEquals(20, s.reads(), s.fieldKey());
        assertEquals(0, s.staleReads(), s.fieldKey());
      }
    }
  }

  @Test
  void referenceReadsReturnOnlyVisibleWritesCastToTheFieldType() throws Throwable {
    try (InstrumentedRun run = run("oldest", new int[0], CELLS + "ref")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      String first = "first";
      call(c, "setRef", cells, first); // by this thread, before the fork: it happens-before the second write
      writeUnordered(run, () -> call(c, "setRef", cells, "second!"));
      // null@⊥ is hidden by "first" (⊥ ⊑ K1 ⊑ C(reader)); "first" is not hidden (K2 is not ⊑ C(reader))
      assertSame(first, call(c, "getRef", cells));
      assertEquals(5, call(c, "refLength", cells));
      assertEquals("second!", heap(cells, "ref"));
    }
  }

  @Test
  void longReadsAreNonAtomicButOnlyFromVisibleHalves() throws Throwable {
    long written = 0x1111_1111_2222_2222L;
    try (InstrumentedRun run = run("random", new int[0], CELLS + "wide")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      writeUnordered(run, () -> call(c, "setWide", cells, written));
      Set<Long> allowed = Set.of(0L, written, 0x1111_1111_0000_0000L, 0x0000_0000_2222_2222L);
      Set<Long> seen = new HashSet<>();
      for (int i = 0; i < 200; i++) {
        seen.add((Long) call(c, "getWide", cells));
      }
      assertTrue(allowed.containsAll(seen), "only halves of visible writes: " + seen);
      assertTrue(seen.contains(0x1111_1111_0000_0000L) || seen.contains(0x0000_0000_2222_2222L),
          "a torn value is served for this seed: " + seen);
      assertEquals(written, heap(cells, "wide"));
    }
  }

  @Test
  void doublesGoThroughTheirRawBits() throws Throwable {
    try (InstrumentedRun run = run("oldest-but-different", new int[0], CELLS + "real")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      call(c, "setReal", cells, 1.5);
      writeUnordered(run, () -> call(c, "setReal", cells, 2.5));
      Set<Object> seen = new HashSet<>();
      for (int i = 0; i < 10; i++) {
        seen.add(call(c, "getReal", cells));
      }
      assertEquals(Set.of(1.5, 2.5), seen, "alternating between the two visible doubles, never a torn or default one");
    }
  }

  @Test
  void staticFieldsHaveOneBufferAndFieldsNotUnderTrialAreLeftAlone() throws Throwable {
    try (InstrumentedRun run = run("oldest", new int[0], CELLS + "flag")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      writeUnordered(run, () -> {
        call(c, "setFlag", 9);
        call(c, "setUntouched", cells, 4);
      });
      assertEquals(0, call(c, "getFlag"));
      assertEquals(4, call(c, "getUntouched", cells), "not under trial: the real value");
      assertEquals(Set.of(CELLS + "flag"), stats(run).keySet());
    }
  }

  @Test
  void arraysSampleOnlyTheConfiguredIndicesOfArraysHeldInTheField() throws Throwable {
    try (InstrumentedRun run = run("oldest", new int[] {1}, CELLS + "slots[]")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      writeUnordered(run, () -> {
        for (int i = 0; i < 4; i++) {
          call(c, "setSlot", cells, i, 10 + i);
        }
      });
      assertEquals(10, call(c, "getSlot", cells, 0));
      assertEquals(0, call(c, "getSlot", cells, 1), "index 1 is sampled: its default is still visible");
      assertEquals(12, call(c, "getSlot", cells, 2));
      assertEquals(11, ((int[]) heap(cells, "slots"))[1]);
      FieldStats s = stats(run).get(CELLS + "slots[]");
      assertEquals(1, s.reads());
      assertEquals(1, s.writes());
    }
  }

  /**
   * An array the writer allocates, fills and only then stores into the field: a reader the fill does not happen before
   * may read an element's default (JMM: the default is the only write ordered before it), and a reader it does happen
   * before never does.
   */
  @Test
  void anArrayFilledThenPublishedShowsItsDefaultsOnlyToReadersTheFillIsNotOrderedBefore() throws Throwable {
    try (InstrumentedRun run = run("oldest", new int[] {1, 2}, CELLS + "slots[]")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      writeUnordered(run, () -> call(c, "publishSlots", cells, 10));
      assertEquals(10, call(c, "getSlot", cells, 0), "index 0 is not sampled");
      assertEquals(0, call(c, "getSlot", cells, 1), "the default of the fresh array is still visible");
      assertEquals(0, call(c, "getSlot", cells, 2));
      assertEquals(11, ((int[]) heap(cells, "slots"))[1], "the fill happened for real");
      writeUnordered(run, () -> call(c, "publishInitialisedSlots", cells));
      assertEquals(0, call(c, "getSlot", cells, 1), "an array initialiser is a fill too");
      writeUnordered(run, () -> call(c, "publishFilledSlots", cells, 9));
      assertEquals(0, call(c, "getSlot", cells, 1), "Arrays.fill is a fill too");
      writeUnordered(run, () -> call(c, "publishCopiedSlots", cells, new int[] {4, 3, 2, 1}));
      assertEquals(0, call(c, "getSlot", cells, 2), "and so is System.arraycopy");
      assertEquals(3, ((int[]) heap(cells, "slots"))[1]);
      assertEquals(5, stats(run).get(CELLS + "slots[]").staleReads(), "five stale defaults served");
    }
    try (InstrumentedRun run = run("oldest", new int[] {1}, CELLS + "slots[]")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      run.join(run.start(() -> call(c, "publishSlots", cells, 10)));
      for (int i = 0; i < 3; i++) {
        assertEquals(11, call(c, "getSlot", cells, 1), "the join orders the fill before: the default is hidden");
      }
      assertEquals(0, stats(run).get(CELLS + "slots[]").staleReads());
    }
  }

  /**
   * The elements of an array held in a volatile field are plain: the volatile read orders the reference (here its
   * constructor's store), not a later element write, so its default stays visible; a volatile store of the array after
   * the element write orders it before the reader, and the default is hidden.
   */
  @Test
  void theElementsOfAnArrayInAVolatileFieldAreJumbledAndOrderedOnlyByItsVolatileStores() throws Throwable {
    try (InstrumentedRun run = run("oldest", new int[] {1}, CELLS + "volatileSlots[]")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      writeUnordered(run, () -> call(c, "setVolatileSlot", cells, 1, 7));
      assertEquals(0, call(c, "getVolatileSlot", cells, 1), "the element write is unordered with the reader");
      assertEquals(1, stats(run).get(CELLS + "volatileSlots[]").staleReads());
    }
    try (InstrumentedRun run = run("oldest", new int[] {1}, CELLS + "volatileSlots[]")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      writeUnordered(run, () -> call(c, "publishVolatileSlot", cells, 1, 7));
      for (int i = 0; i < 3; i++) {
        assertEquals(7, call(c, "getVolatileSlot", cells, 1), "the volatile store after the write orders it");
      }
      assertEquals(0, stats(run).get(CELLS + "volatileSlots[]").staleReads());
    }
  }

  /** System.arraycopy of a jumbled array reads its sampled elements through their buffers: a stale one is copied. */
  @Test
  void aBulkCopyOutOfAJumbledArrayCopiesTheStaleValueOfASampledElement() throws Throwable {
    try (InstrumentedRun run = run("oldest", new int[] {1}, CELLS + "slots[]")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      writeUnordered(run, () -> {
        for (int i = 0; i < 4; i++) {
          call(c, "setSlot", cells, i, 10 + i);
        }
      });
      int[] copy = (int[]) call(c, "copySlots", cells);
      assertEquals(List.of(10, 0, 12, 13), java.util.Arrays.stream(copy).boxed().toList(),
          "index 1 is sampled: the copy read its default, still visible");
      assertEquals(11, ((int[]) heap(cells, "slots"))[1]);
      FieldStats s = stats(run).get(CELLS + "slots[]");
      assertEquals(1, s.reads());
      assertEquals(1, s.staleReads());
    }
    try (InstrumentedRun run = run("sc", new int[] {1}, CELLS + "slots[]")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      writeUnordered(run, () -> call(c, "setSlot", cells, 1, 11));
      int[] copy = (int[]) call(c, "copySlots", cells);
      assertEquals(11, copy[1], "sc serves the latest write");
    }
  }

  /** A bulk copy into a jumbled array is a buffered write: an unordered reader may still get the older value. */
  @Test
  void aBulkCopyIntoAJumbledArrayIsABufferedWrite() throws Throwable {
    try (InstrumentedRun run = run("oldest", new int[] {1}, CELLS + "slots[]")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      writeUnordered(run, () -> call(c, "copyIntoSlots", cells, new int[] {20, 21, 22, 23}));
      assertEquals(0, call(c, "getSlot", cells, 1), "the copied 21 is one visible write; the default is older");
      assertEquals(22, call(c, "getSlot", cells, 2), "index 2 is not sampled");
      assertEquals(21, ((int[]) heap(cells, "slots"))[1]);
      FieldStats s = stats(run).get(CELLS + "slots[]");
      assertEquals(1, s.writes());
      assertEquals(1, s.staleReads());
    }
  }

  /** A clone of a jumbled array copies its sampled elements as their buffers serve them; a fill is a buffered write. */
  @Test
  void aCloneReadsAndAFillWritesTheSampledElementsThroughTheirBuffers() throws Throwable {
    try (InstrumentedRun run = run("oldest", new int[] {1}, CELLS + "slots[]")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      writeUnordered(run, () -> {
        for (int i = 0; i < 4; i++) {
          call(c, "setSlot", cells, i, 10 + i);
        }
      });
      int[] copy = (int[]) call(c, "cloneSlots", cells);
      assertEquals(List.of(10, 0, 12, 13), java.util.Arrays.stream(copy).boxed().toList());
    }
    try (InstrumentedRun run = run("oldest", new int[] {1}, CELLS + "slots[]")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      call(c, "setSlot", cells, 1, 5);
      writeUnordered(run, () -> {
        call(c, "fillSlots", cells, 9);
        call(c, "fillSlotRange", cells, 2, 4, 7); // index 1 is outside: no write
      });
      assertEquals(5, call(c, "getSlot", cells, 1), "the fill's 9 is unordered with this thread: its own 5 is older");
      assertEquals(9, ((int[]) heap(cells, "slots"))[1]);
      assertEquals(7, call(c, "getSlot", cells, 2));
      FieldStats s = stats(run).get(CELLS + "slots[]");
      assertEquals(2, s.writes());
    }
    try (InstrumentedRun run = run("oldest", new int[] {1}, CELLS + "slots[]")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      writeUnordered(run, () -> call(c, "fillSlots", cells, 9));
      assertEquals(0, call(c, "getSlot", cells, 1), "the buffer was seeded with the value before the fill");
      assertEquals(9, ((int[]) heap(cells, "slots"))[1]);
    }
  }

  /** Arrays.copyOf and copyOfRange of a jumbled array copy its sampled elements as their buffers serve them. */
  @Test
  void copyOfAndCopyOfRangeReadTheSampledElementsThroughTheirBuffers() throws Throwable {
    try (InstrumentedRun run = run("oldest", new int[] {1, 3}, CELLS + "slots[]")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      writeUnordered(run, () -> {
        for (int i = 0; i < 4; i++) {
          call(c, "setSlot", cells, i, 10 + i);
        }
      });
      assertEquals(List.of(10, 0, 12, 0, 0, 0), java.util.Arrays.stream((int[]) call(c, "copyOfSlots", cells, 6))
          .boxed().toList(), "indices 1 and 3 are sampled: their defaults are still visible; 4 and 5 are padding");
      assertEquals(List.of(10, 0), java.util.Arrays.stream((int[]) call(c, "copyOfSlots", cells, 2)).boxed().toList(),
          "a shorter copy reads only the sampled element it copies");
      assertEquals(List.of(0, 12, 0), java.util.Arrays.stream((int[]) call(c, "copyOfSlotRange", cells, 1, 4))
          .boxed().toList(), "copy[i - from] holds what element i's buffer served");
      assertEquals(11, ((int[]) heap(cells, "slots"))[1]);
      FieldStats s = stats(run).get(CELLS + "slots[]");
      assertEquals(5, s.reads(), "2 + 1 + 2 sampled elements copied (index 3 is past the short copy)");
    }
    try (InstrumentedRun run = run("sc", new int[] {1}, CELLS + "slots[]")) {
      Class<?> c = run.load(RacyCells.class);
      Object cells = call(c, "create");
      writeUnordered(run, () -> call(c, "setSlot", cells, 1, 11));
      assertEquals(11, ((int[]) call(c, "copyOfSlotRange", cells, 1, 2))[0], "sc serves the latest write");
      assertThrows(IllegalArgumentException.class, () -> call(c, "copyOfSlotRange", cells, 3, 1),
          "from > to: the original call's IllegalArgumentException");
    }
  }

  @Test
  void anInternalErrorReturnsTheRealValueAndIsCounted() throws Throwable {
    try (InstrumentedRun run = run("oldest", new int[0], CELLS + "count")) {
      assertEquals(17, JumbleHooks.readInt(new Object(), 17, 99), "slot 99 does not exist");
      assertEquals(1, run.jumble().detect().summary().internalErrors());
    }
  }
}
