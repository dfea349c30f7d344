package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.detect.FieldRaces;
import dev.racetriage.agent.instrument.BulkArrayCalls.Range;
import dev.racetriage.agent.instrument.fixtures.BulkArrays;
import dev.racetriage.agent.runtime.BulkHooks;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The bulk array model table, and on instrumented code: each thread pair is ordered only through what is under test
 * (the first thread's end is awaited without an edge), so a range the agent does not see is a missing race and a
 * range it records wrongly is a false one.
 */
class BulkArrayCallsTest {
  private static final String KEY = InstrumentedRun.FIXTURES + "BulkArrays.";

  @Test
  void everyBulkHookTheInstrumenterCallsExistsWithItsDescriptor() {
    assertEquals(BulkHookMethod.OWNER, Type.getInternalName(BulkHooks.class));
    for (BulkHookMethod hook : BulkHookMethod.values()) {
      boolean found = false;
      for (Method m : BulkHooks.class.getDeclaredMethods()) {
        if (m.getName().equals(hook.methodName()) && Type.getMethodDescriptor(m).equals(hook.descriptor())) {
          assertTrue(Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers()), hook.name());
          found = true;
        }
      }
      assertTrue(found, "BulkHooks lacks " + hook.methodName() + hook.descriptor());
    }
  }

  @Test
  void theTableSaysWhichArgumentsBoundEachRange() {
    assertEquals(BulkArrayCalls.ARRAYCOPY, model(Opcodes.INVOKESTATIC, "java/lang/System", "arraycopy",
        "(Ljava/lang/Object;ILjava/lang/Object;II)V"));
    assertEquals(List.of(Range.write(0, 1, 2)), ranges(Opcodes.INVOKESTATIC, "java/util/Arrays", "fill", "([IIII)V"));
    assertEquals(List.of(Range.whole(true, 0)), ranges(Opcodes.INVOKESTATIC, "java/util/Arrays", "fill", "([JJ)V"));
    assertEquals(List.of(Range.whole(true, 0)), ranges(Opcodes.INVOKESTATIC, "java/util/Arrays", "setAll",
        "([Ljava/lang/Object;Ljava/util/function/IntFunction;)V"));
    assertEquals(List.of(Range.whole(true, 0)), ranges(Opcodes.INVOKESTATIC, "java/util/Arrays", "sort",
        "([Ljava/lang/Object;Ljava/util/Comparator;)V"));
    assertEquals(List.of(Range.read(0, BulkArrayCalls.NONE, 1)), ranges(Opcodes.INVOKESTATIC, "java/util/Arrays",
        "copyOf", "([Ljava/lang/Object;ILjava/lang/Class;)[Ljava/lang/Object;"));
    assertEquals(List.of(Range.read(0, 1, 2)), ranges(Opcodes.INVOKESTATIC, "java/util/Arrays", "copyOfRange",
        "([BII)[B"));
    assertEquals(List.of(Range.whole(false, 0), Range.whole(false, 1)), ranges(Opcodes.INVOKESTATIC,
        "java/util/Arrays", "equals", "([I[I)Z"));
    assertEquals(List.of(Range.read(0, 1, 2), Range.read(3, 4, 5)), ranges(Opcodes.INVOKESTATIC,
        "java/util/Arrays", "mismatch", "([III[III)I"));
    assertEquals(List.of(Range.whole(false, 0)), ranges(Opcodes.INVOKEVIRTUAL, "[[J", "clone",
        "()Ljava/lang/Object;"));
    assertEquals(List.of(new Range(false, 0, 1, BulkArrayCalls.NONE, 2)), ranges(Opcodes.INVOKESPECIAL,
        "java/lang/String", "<init>", "([CII)V"));
    assertEquals(List.of(Range.whole(false, 0)), ranges(Opcodes.INVOKESTATIC, "java/lang/String", "valueOf",
        "([C)Ljava/lang/String;"));
    // views, lazy pipelines, calls on no array, and what the JDK does not define as a bulk access
    assertNull(model(Opcodes.INVOKESTATIC, "java/util/Arrays", "asList", "([Ljava/lang/Object;)Ljava/util/List;"));
    assertNull(model(Opcodes.INVOKESTATIC, "java/util/Arrays", "stream", "([I)Ljava/util/stream/IntStream;"));
    assertNull(model(Opcodes.INVOKEVIRTUAL, "java/lang/Object", "clone", "()Ljava/lang/Object;"));
    assertNull(model(Opcodes.INVOKESTATIC, "java/lang/String", "valueOf", "(I)Ljava/lang/String;"));
    assertNull(model(Opcodes.INVOKESPECIAL, "java/lang/String", "<init>", "([BIII)V"));
  }

  @Test
  void arraycopyValidatesAsTheJdkDoes() {
    int[] ints = new int[4];
    assertTrue(bulkCopies(ints, 0, new int[4], 0, 4));
    assertTrue(bulkCopies(new String[2], 0, new Object[2], 1, 1));
    assertEquals(false, bulkCopies(ints, 0, new long[4], 0, 1));
    assertEquals(false, bulkCopies(ints, 1, new int[4], 0, 4));
    assertEquals(false, bulkCopies(ints, 0, null, 0, 1));
    assertEquals(false, bulkCopies(ints, -1, ints, 0, 1));
    assertEquals(false, bulkCopies(ints, 0, ints, Integer.MAX_VALUE, 2));
  }

  @Test
  void arraycopyReadsItsSourceRangeAfterAnUnorderedWrite() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Object b = shared(run);
      Class<?> c = b.getClass();
      unordered(run, () -> InstrumentedRun.call(c, "writeSrc", b, 3, 40),
          () -> InstrumentedRun.call(c, "copy", b, 2, 0, 4));
      assertEquals(Set.of(KEY + "src[]"), run.racyFields());
      assertEquals(List.of(3), run.races(KEY + "src[]").indices());
    }
  }

  @Test
  void arraycopyOutsideTheWrittenElementIsNoRace() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Object b = shared(run);
      Class<?> c = b.getClass();
      unordered(run, () -> InstrumentedRun.call(c, "writeSrc", b, 7, 40),
          () -> InstrumentedRun.call(c, "copy", b, 0, 0, 7));
      assertEquals(Set.of(), run.racyFields());
    }
  }

  @Test
  void arraycopyWritesItsDestinationRangeBeforeAnUnorderedRead() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Object b = shared(run);
      Class<?> c = b.getClass();
      unordered(run, () -> InstrumentedRun.call(c, "copy", b, 0, 2, 3),
          () -> {
            InstrumentedRun.call(c, "readDest", b, 6); // not copied into
            InstrumentedRun.call(c, "readDest", b, 4);
          });
      assertEquals(Set.of(KEY + "dest[]"), run.racyFields());
      FieldRaces races = run.races(KEY + "dest[]");
      assertEquals(List.of(4), races.indices());
      assertEquals("copy", races.first().previous().site().methodName(), races.first().toString());
    }
  }

  @Test
  void aCopyThatThrowsRecordsNoWrite() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Object b = shared(run);
      Class<?> c = b.getClass();
      assertThrows(ArrayStoreException.class, () -> InstrumentedRun.call(c, "copyIntoWrongType", b));
      unordered(run, () -> InstrumentedRun.call(c, "copy", b, 6, 0, 4), // out of bounds: throws
          () -> InstrumentedRun.call(c, "readDest", b, 1));
      assertEquals(Set.of(), run.racyFields());
    }
  }

  @Test
  void fillWritesOnlyItsRange() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Object b = shared(run);
      Class<?> c = b.getClass();
      unordered(run, () -> InstrumentedRun.call(c, "fill", b, 1, 3, 9),
          () -> {
            InstrumentedRun.call(c, "readDest", b, 0);
            InstrumentedRun.call(c, "readDest", b, 3);
            InstrumentedRun.call(c, "readDest", b, 2);
          });
      assertEquals(List.of(2), run.races(KEY + "dest[]").indices());
    }
  }

  @Test
  void fillSetAllAndSortOfTheWholeArrayWrite() throws Throwable {
    for (String writer : List.of("fillAll", "setAll", "sort")) {
      try (InstrumentedRun run = new InstrumentedRun()) {
        Object b = shared(run);
        Class<?> c = b.getClass();
        unordered(run, () -> {
              if (writer.equals("fillAll")) {
                InstrumentedRun.call(c, writer, b, 3);
              } else {
                InstrumentedRun.call(c, writer, b);
              }
            },
            () -> InstrumentedRun.call(c, "readDest", b, 7));
        assertEquals(Set.of(KEY + "dest[]"), run.racyFields(), writer);
      }
    }
  }

  @Test
  void copyOfAndCopyOfRangeReadOnlyTheirRanges() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Object b = shared(run);
      Class<?> c = b.getClass();
      unordered(run, () -> InstrumentedRun.call(c, "writeSrc", b, 5, 60),
          () -> {
            InstrumentedRun.call(c, "copyOf", b, 5); // elements 0..4
            InstrumentedRun.call(c, "copyOfRange", b, 6, 8);
          });
      assertEquals(Set.of(), run.racyFields());
    }
    try (InstrumentedRun run = new InstrumentedRun()) {
      Object b = shared(run);
      Class<?> c = b.getClass();
      unordered(run, () -> InstrumentedRun.call(c, "writeSrc", b, 5, 60),
          () -> InstrumentedRun.call(c, "copyOfRange", b, 4, 6));
      assertEquals(List.of(5), run.races(KEY + "src[]").indices());
    }
  }

  @Test
  void cloneReadsTheWholeArray() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Object b = shared(run);
      Class<?> c = b.getClass();
      unordered(run, () -> InstrumentedRun.call(c, "writeSrc", b, 5, 61),
          () -> InstrumentedRun.call(c, "cloneSrc", b));
      assertEquals(Set.of(KEY + "src[]"), run.racyFields());
      assertEquals(List.of(5), run.races(KEY + "src[]").indices());
    }
  }

  @Test
  void aStringBuiltFromCharsReadsItsRange() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Object b = shared(run);
      Class<?> c = b.getClass();
      Object[] built = new Object[1];
      unordered(run, () -> InstrumentedRun.call(c, "writeChar", b, 2, 'z'),
          () -> built[0] = InstrumentedRun.call(c, "string", b, 1, 2));
      assertEquals("bz", built[0]);
      assertEquals(Set.of(KEY + "chars[]"), run.racyFields());
      assertEquals(List.of(2), run.races(KEY + "chars[]").indices());
    }
  }

  /**
   * A long array's records are kept per chunk of 64 elements, a chunk a range covers whole as one record: bulk ranges
   * that start, end and cross chunk boundaries are checked element by element all the same.
   */
  @Test
  void bulkRangesAcrossChunkBoundariesOfALongArray() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) { // a fill over chunks 0 to 2, read around its ends
      Object b = shared(run);
      Class<?> c = b.getClass();
      unordered(run, () -> InstrumentedRun.call(c, "fillBig", b, 60, 140, 1),
          () -> {
            for (int i : new int[] {59, 60, 63, 64, 127, 128, 139, 140}) {
              InstrumentedRun.call(c, "readBig", b, i);
            }
          });
      assertEquals(List.of(60, 63, 64, 127, 128, 139), sorted(run.races(KEY + "big[]").indices()));
    }
    try (InstrumentedRun run = new InstrumentedRun()) { // an element written, then copied from by another thread
      Object b = shared(run);
      Class<?> c = b.getClass();
      unordered(run, () -> InstrumentedRun.call(c, "writeBig", b, 130, 7),
          () -> InstrumentedRun.call(c, "copyBig", b, 100, 200, 64));
      assertEquals(List.of(130), run.races(KEY + "big[]").indices());
    }
    try (InstrumentedRun run = new InstrumentedRun()) { // a copy's destination range, read at and past its end
      Object b = shared(run);
      Class<?> c = b.getClass();
      unordered(run, () -> InstrumentedRun.call(c, "copyBig", b, 0, 120, 100),
          () -> {
            InstrumentedRun.call(c, "readBig", b, 119);
            InstrumentedRun.call(c, "readBig", b, 219);
            InstrumentedRun.call(c, "readBig", b, 220);
          });
      assertEquals(List.of(219), run.races(KEY + "big[]").indices());
    }
    try (InstrumentedRun run = new InstrumentedRun()) { // a whole fill, then one element, then a clone elsewhere
      Object b = shared(run);
      Class<?> c = b.getClass();
      unordered(run, () -> {
            InstrumentedRun.call(c, "fillAllBig", b, 3);
            InstrumentedRun.call(c, "writeBig", b, 250, 4);
          },
          () -> InstrumentedRun.call(c, "cloneBig", b));
      FieldRaces races = run.races(KEY + "big[]");
      assertEquals(300, races.count(), "every element of the clone races with the fill (or the write after it)");
      assertEquals(0, run.internalErrors());
    }
    try (InstrumentedRun run = new InstrumentedRun()) { // ordered through the thread's end: no race
      Object b = shared(run);
      Class<?> c = b.getClass();
      run.join(run.start(() -> InstrumentedRun.call(c, "fillAllBig", b, 3)));
      run.join(run.start(() -> InstrumentedRun.call(c, "copyBig", b, 10, 70, 150)));
      run.join(run.start(() -> InstrumentedRun.call(c, "cloneBig", b)));
      assertEquals(Set.of(), run.racyFields());
    }
  }

  private static List<Integer> sorted(List<Integer> indices) {
    return indices.stream().sorted().toList();
  }

  @Test
  void orderedBulkOperationsAreNoRace() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Object b = shared(run);
      Class<?> c = b.getClass();
      run.join(run.start(() -> InstrumentedRun.call(c, "copy", b, 0, 0, 8)));
      run.join(run.start(() -> InstrumentedRun.call(c, "fill", b, 0, 8, 1)));
      run.join(run.start(() -> InstrumentedRun.call(c, "cloneSrc", b)));
      run.join(run.start(() -> InstrumentedRun.call(c, "writeSrc", b, 0, 1)));
      run.join(run.start(() -> InstrumentedRun.call(c, "copy", b, 0, 0, 8)));
      assertEquals(Set.of(), run.racyFields());
      assertEquals(0, run.internalErrors());
    }
  }

  @Test
  void instrumentedBulkCallsComputeWhatThePlainOnesDo() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> plain = run.loadPlain(BulkArrays.class);
      Class<?> instrumented = run.load(BulkArrays.class);
      Object expected = InstrumentedRun.call(plain, "everything", InstrumentedRun.call(plain, "create"));
      assertEquals(expected, InstrumentedRun.call(instrumented, "everything",
          InstrumentedRun.call(instrumented, "create")));
      assertEquals(0, run.internalErrors());
    }
  }

  /** Runs {@code first} in a thread, awaits its end without an edge, then runs {@code second} in another. */
  private static void unordered(InstrumentedRun run, InstrumentedRun.ThrowingRunnable first,
                                InstrumentedRun.ThrowingRunnable second) throws InterruptedException {
    InstrumentedRun.awaitEndWithoutEdge(run.start(first));
    Thread t = run.start(second);
    InstrumentedRun.awaitEndWithoutEdge(t);
  }

  private static Object shared(InstrumentedRun run) throws Throwable {
    return InstrumentedRun.call(run.load(BulkArrays.class), "create");
  }

  private static boolean bulkCopies(Object src, int srcPos, Object dest, int destPos, int length) {
    try {
      Method m = BulkHooks.class.getDeclaredMethod("copies", Object.class, int.class, Object.class, int.class,
          int.class);
      m.setAccessible(true);
      return (boolean) m.invoke(null, src, srcPos, dest, destPos, length);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private static BulkArrayCalls.Model model(int opcode, String owner, String name, String descriptor) {
    return BulkArrayCalls.of(opcode, owner, name, descriptor);
  }

  private static List<Range> ranges(int opcode, String owner, String name, String descriptor) {
    return model(opcode, owner, name, descriptor).ranges();
  }
}
