package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.detect.FieldRaces;
import dev.racetriage.agent.detect.SiteTable;
import dev.racetriage.agent.instrument.fixtures.CountedLoopShapes;
import dev.racetriage.agent.runtime.FieldRegistry;
import dev.racetriage.agent.runtime.JumbleTargets;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Which loops get range checks at their exits instead of element hooks ({@link LoopCheckHoister}), that the rewritten
 * code computes what the original does, and that the range checks report exactly the elements the loop touched.
 */
class LoopCheckHoisterTest {
  private static final String SHAPES = CountedLoopShapes.class.getName();

  @Test
  void simpleCountedLoopsCheckRangesAtTheirExitsInsteadOfElements() throws IOException {
    Map<String, List<String>> hooks = hooksByMethod(detect());
    for (String m : List.of("fill", "addOne", "copyUntilNegative", "divide", "fillRows", "rowSwappedMidLoop")) {
      assertTrue(hooks.get(m).contains("writeRange"), m + ": " + hooks.get(m));
    }
    for (String m : List.of("sumDown", "firstNegative", "copyUntilNegative", "divide")) {
      assertTrue(hooks.get(m).contains("readRange"), m + ": " + hooks.get(m));
    }
    for (String m : List.of("fill", "addOne", "sumDown", "firstNegative", "copyUntilNegative", "divide")) {
      assertFalse(hooks.get(m).contains("readElement") || hooks.get(m).contains("writeElement"), m + ": "
          + hooks.get(m));
    }
    // a[j] += 1: the write's range check stands for the read's (same elements, same clock)
    assertFalse(hooks.get("addOne").contains("readRange"), hooks.get("addOne").toString());
    // a String query and a static callee of the class that only reads and calls such code (QuietCallees)
    List<String> keys = hooks.get("countPublicKeys");
    assertTrue(keys.contains("readRange") && !keys.contains("readElement"), keys.toString());
  }

  @Test
  void nestedLoopsHoistTheAccessesThatRunOncePerIterationAndOnlyInductionIndexedOnes() throws IOException {
    Map<String, List<String>> hooks = hooksByMethod(detect());
    List<String> multiply = hooks.get("multiply");
    assertTrue(multiply.contains("writeRange") && multiply.contains("readRange"), multiply.toString());
    assertFalse(multiply.contains("writeElement") || multiply.contains("readElement"), multiply.toString());
    // a[i] in the inner loop: one element read in every iteration, checked once at the exit if the loop ran
    List<String> repeated = hooks.get("sumRepeated");
    assertTrue(!repeated.contains("readElement") && repeated.contains("readRange"), repeated.toString());
    // a[j + 1] = a[j] counting down: both hoisted, the write's range one element to the right
    List<String> shift = hooks.get("shiftRight");
    assertTrue(shift.contains("readRange") && shift.contains("writeRange"), shift.toString());
    assertFalse(shift.contains("readElement") || shift.contains("writeElement"), shift.toString());
    // stride 2 with neighbours a[j - 1], a[j + 1]: strided ranges, no element hook left
    // a Math call in the loop: still hoisted (the read of a[j] has the write's range, so only the write is checked)
    List<String> clamp = hooks.get("clampBelow");
    assertTrue(clamp.contains("writeRange"), clamp.toString());
    assertFalse(clamp.contains("readElement") || clamp.contains("writeElement"), clamp.toString());
    // Integer/Long bit operations on primitives: arithmetic too
    List<String> bits = hooks.get("rotateAndReverse");
    assertTrue(bits.contains("writeRange") && bits.contains("readRange"), bits.toString());
    assertFalse(bits.contains("readElement") || bits.contains("writeElement"), bits.toString());
    List<String> relax = hooks.get("relaxEverySecond");
    assertTrue(relax.contains("readRange") && relax.contains("writeRange"), relax.toString());
    assertFalse(relax.contains("readElement") || relax.contains("writeElement"), relax.toString());
  }

  @Test
  void loopsThatMaySynchroniseOrDoNotCountByOneKeepTheirElementHooks() throws IOException {
    Map<String, List<String>> hooks = hooksByMethod(detect());
    for (String m : List.of("withCall", "withRandom", "withVolatileRead", "withMonitor", "arrayReassigned",
        "strideDownTwo", "withStoringCallee", "withCalleeCallingOut", "withCharSequenceArgument",
        "conditionalAccess", "inductionAlsoStored", "withBoxing")) {
      List<String> h = hooks.get(m);
      assertFalse(h.contains("readRange") || h.contains("writeRange"), m + ": " + h);
      assertTrue(h.contains("writeElement"), m + ": " + h);
    }
  }

  @Test
  void jumbleModeKeepsItsPerAccessHooks() throws IOException {
    ClassInstrumenter jumble = new ClassInstrumenter(new SiteTable(), new FieldRegistry(),
        new JumbleTargets(List.of(SHAPES + ".published")), null);
    Map<String, List<String>> hooks = hooksByMethod(jumble);
    for (Map.Entry<String, List<String>> e : hooks.entrySet()) {
      assertFalse(e.getValue().contains("readRange") || e.getValue().contains("writeRange"), e.toString());
    }
  }

  @Test
  void aLoopNotCoveredByAHandlerGetsACatchAllThatRethrows() throws IOException {
    ClassNode node = new ClassNode();
    new ClassReader(detect().instrument(ClassKind.APPLICATION, getClass().getClassLoader(), original()).bytes())
        .accept(node, 0);
    MethodNode divide = method(node, "divide");
    assertEquals(1, divide.tryCatchBlocks.size(), "the catch-all of the loop");
    assertEquals(null, divide.tryCatchBlocks.get(0).type);
  }

  @Test
  void hoistedLoopsComputeWhatTheOriginalComputes() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      for (Class<?> c : List.of(run.loadPlain(CountedLoopShapes.class), run.load(CountedLoopShapes.class))) {
        int[] a = {3, -1, 4, 1, -5, 9, 2, 6};
        InstrumentedRun.call(c, "addOne", a, 6);
        assertArrayEquals(new int[] {4, 0, 5, 2, -4, 10, 2, 6}, a);
        assertEquals(15L, InstrumentedRun.call(c, "sumDown", new long[] {1, 2, 3, 4, 5}));
        assertEquals(1, InstrumentedRun.call(c, "firstNegative", new int[] {0, -2, -3}));
        assertEquals(-1, InstrumentedRun.call(c, "firstNegative", new int[0]));
        int[] to = new int[5];
        assertEquals(2, InstrumentedRun.call(c, "copyUntilNegative", new int[] {7, 8, -1, 9, 9}, to));
        assertArrayEquals(new int[] {7, 8, 0, 0, 0}, to);
        int[] q = new int[4];
        assertThrows(ArithmeticException.class,
            () -> InstrumentedRun.call(c, "divide", new int[] {10, 100, 0, 1}, q, 4));
        assertArrayEquals(new int[] {100, 10, 0, 0}, q);
        int[] s = {1, 2, 3, 4};
        InstrumentedRun.call(c, "shiftRight", s);
        assertArrayEquals(new int[] {1, 1, 2, 3}, s);
        double[] r = {0, 8, 4, 8, 0, 2};
        InstrumentedRun.call(c, "relaxEverySecond", r, 1);
        assertArrayEquals(new double[] {0, 2, 4, 2, 0, 2}, r);
        int[] clamped = {-3, 5, 0, -1};
        InstrumentedRun.call(c, "clampBelow", clamped, 0);
        assertArrayEquals(new int[] {0, 5, 0, 0}, clamped);
        int[] e = new int[5];
        InstrumentedRun.call(c, "fillEverySecond", e, 1, 7);
        assertArrayEquals(new int[] {0, 7, 0, 7, 0}, e);
        int[] rotated = {1, -8, 0};
        InstrumentedRun.call(c, "rotateAndReverse", rotated, new long[] {1, 0, -1});
        assertArrayEquals(new int[] {Integer.reverse(Integer.rotateLeft(1, 13)) + 63,
            Integer.reverse(Integer.rotateLeft(-8, 13)) + 64, 0}, rotated);
        assertEquals(14L, InstrumentedRun.call(c, "sumEverySecond", e, 1));
        assertEquals(7L, InstrumentedRun.call(c, "sumShifted", e, 1, 3));
        int[][] rows = new int[3][4];
        InstrumentedRun.call(c, "fillRows", rows, 10);
        assertArrayEquals(new int[] {10, 11, 12, 13}, rows[2]);
        int[] other = new int[4];
        int[][] swapped = {new int[4]};
        InstrumentedRun.call(c, "rowSwappedMidLoop", swapped, other, 4);
        assertArrayEquals(new int[] {0, 1, 1, 1}, other);
        assertTrue(swapped[0] == other);
        assertEquals(30L, InstrumentedRun.call(c, "sumRepeated", new int[] {1, 2, 3, 4}, 3));
        assertEquals(2, InstrumentedRun.call(c, "countPublicKeys", new String[] {"id", "/data", "class", "/x"}, 3));
        double[][] m = {{1, 2}, {3, 4}};
        double[][] out = new double[2][2];
        InstrumentedRun.call(c, "multiply", m, m, out, 2);
        assertArrayEquals(new double[] {7, 10}, out[0]);
        assertArrayEquals(new double[] {15, 22}, out[1]);
      }
      assertEquals(0, run.internalErrors());
      assertEquals(Set.of(), run.racyFields());
    }
  }

  @Test
  void arraysReadFromFieldsAndIndicesShiftedByAnInvariantLocalAreHoisted() throws Throwable {
    Map<String, List<String>> hooks = hooksByMethod(detect());
    List<String> daxpy = hooks.get("daxpy");
    assertTrue(daxpy.contains("writeRange") && daxpy.contains("readRange"), daxpy.toString());
    assertFalse(daxpy.contains("writeElement") || daxpy.contains("readElement"), daxpy.toString());
    Map<String, List<String>> holder = hooksByMethod(detect(), CountedLoopShapes.Holder.class);
    assertTrue(holder.get("sumField").contains("readRange"), holder.toString());
    assertFalse(holder.get("sumField").contains("readElement"), holder.toString());
    assertTrue(holder.get("swapMidLoop").contains("writeElement"), holder.toString());
    assertFalse(holder.get("swapMidLoop").contains("writeRange"), holder.toString());
    try (InstrumentedRun run = new InstrumentedRun()) {
      for (Class<?> c : List.of(run.loadPlain(CountedLoopShapes.class), run.load(CountedLoopShapes.class))) {
        double[] dy = {1, 1, 1, 1, 1, 1};
        InstrumentedRun.call(c, "daxpy", 3, 2.0, new double[] {0, 1, 2, 3}, 1, dy, 2);
        assertArrayEquals(new double[] {1, 1, 3, 5, 7, 1}, dy);
        assertEquals(2L + 3 + 4 + 2 + 3 + 4, InstrumentedRun.call(c, "sumFrom", new int[] {0, 1, 2, 3, 4, 5}, 2, 3));
      }
      // the ranges are exactly the elements touched: dy[2..5) written by one thread, read unordered by another
      Class<?> c = run.load(CountedLoopShapes.class);
      double[] dy = new double[8];
      Thread writer = run.start(() -> InstrumentedRun.call(c, "daxpy", 3, 1.0, new double[4], 0, dy, 2));
      InstrumentedRun.awaitEndWithoutEdge(writer);
      run.join(run.start(() -> InstrumentedRun.call(c, "daxpy", 2, 1.0, dy, 4, new double[2], 0)));
      FieldRaces races = run.races(SHAPES + ".daxpy()[]");
      assertNotNull(races, run.racyFields().toString());
      assertEquals(Set.of(4), new TreeSet<>(races.indices()), "dy[4] only: the reader read dy[4..6), the writer wrote"
          + " dy[2..5)");
    }
  }

  @Test
  void anotherClassesStaticsAreHoistedOnlyWhenInitialisingItCannotSynchronise() throws Throwable {
    Map<String, List<String>> hooks = hooksByMethod(detect());
    assertTrue(hooks.get("sumQuietStatics").contains("readRange"), hooks.get("sumQuietStatics").toString());
    assertFalse(hooks.get("sumQuietStatics").contains("readElement"), hooks.get("sumQuietStatics").toString());
    assertTrue(hooks.get("sumNoisyStatics").contains("readElement"), hooks.get("sumNoisyStatics").toString());
    assertFalse(hooks.get("sumNoisyStatics").contains("readRange"), hooks.get("sumNoisyStatics").toString());
    try (InstrumentedRun run = new InstrumentedRun()) {
      assertEquals(0L, InstrumentedRun.call(run.load(CountedLoopShapes.class), "sumQuietStatics", 4));
    }
  }

  /**
   * {@code for (j = 0; j < n; j = j + 2) a[j] = 1;} as older compilers wrote it — {@code iload j; iconst_2; iadd;
   * istore j}, no {@code iinc} (the Java Grande suite's red-black SOR): hoisted like {@code iinc j, 2}.
   */
  @Test
  void anIncrementWrittenAsLoadAddStoreCountsTheLoop() throws Throwable {
    String name = "dev/racetriage/agent/instrument/fixtures/GeneratedStrideTwo";
    org.objectweb.asm.ClassWriter cw = new org.objectweb.asm.ClassWriter(
        org.objectweb.asm.ClassWriter.COMPUTE_FRAMES | org.objectweb.asm.ClassWriter.COMPUTE_MAXS);
    cw.visit(org.objectweb.asm.Opcodes.V1_8, org.objectweb.asm.Opcodes.ACC_PUBLIC, name, null, "java/lang/Object", null);
    org.objectweb.asm.MethodVisitor m = cw.visitMethod(org.objectweb.asm.Opcodes.ACC_PUBLIC
        | org.objectweb.asm.Opcodes.ACC_STATIC, "fillByTwo", "([II)V", null, null);
    org.objectweb.asm.Label head = new org.objectweb.asm.Label();
    org.objectweb.asm.Label end = new org.objectweb.asm.Label();
    m.visitCode();
    m.visitInsn(org.objectweb.asm.Opcodes.ICONST_0);
    m.visitVarInsn(org.objectweb.asm.Opcodes.ISTORE, 2);
    m.visitLabel(head);
    m.visitVarInsn(org.objectweb.asm.Opcodes.ILOAD, 2);
    m.visitVarInsn(org.objectweb.asm.Opcodes.ILOAD, 1);
    m.visitJumpInsn(org.objectweb.asm.Opcodes.IF_ICMPGE, end);
    m.visitVarInsn(org.objectweb.asm.Opcodes.ALOAD, 0);
    m.visitVarInsn(org.objectweb.asm.Opcodes.ILOAD, 2);
    m.visitInsn(org.objectweb.asm.Opcodes.ICONST_1);
    m.visitInsn(org.objectweb.asm.Opcodes.IASTORE);
    m.visitVarInsn(org.objectweb.asm.Opcodes.ILOAD, 2);
    m.visitInsn(org.objectweb.asm.Opcodes.ICONST_2);
    m.visitInsn(org.objectweb.asm.Opcodes.IADD);
    m.visitVarInsn(org.objectweb.asm.Opcodes.ISTORE, 2);
    m.visitJumpInsn(org.objectweb.asm.Opcodes.GOTO, head);
    m.visitLabel(end);
    m.visitInsn(org.objectweb.asm.Opcodes.RETURN);
    m.visitMaxs(0, 0);
    m.visitEnd();
    cw.visitEnd();
    byte[] original = cw.toByteArray();
    byte[] out = detect().instrument(ClassKind.APPLICATION, getClass().getClassLoader(), original).bytes();
    assertNotNull(out);
    ClassNode node = new ClassNode();
    new ClassReader(out).accept(node, 0);
    List<String> calls = new ArrayList<>();
    for (AbstractInsnNode insn : method(node, "fillByTwo").instructions) {
      if (insn instanceof MethodInsnNode call && HookMethod.isOwner(call.owner)) {
        calls.add(call.name);
      }
    }
    assertTrue(calls.contains("writeRange"), calls.toString());
    assertFalse(calls.contains("writeElement"), calls.toString());
    Class<?> c = new ClassLoader(getClass().getClassLoader()) {
      Class<?> define() {
        return defineClass(name.replace('/', '.'), out, 0, out.length);
      }
    }.define();
    try (InstrumentedRun run = new InstrumentedRun()) {
      int[] a = new int[7];
      c.getMethod("fillByTwo", int[].class, int.class).invoke(null, a, 7);
      assertArrayEquals(new int[] {1, 0, 1, 0, 1, 0, 1}, a);
    }
  }

  @Test
  void aFieldReadInEveryIterationIsCheckedOnceAtTheExitAndStillRaces() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> holderClass = run.load(CountedLoopShapes.Holder.class);
      Object holder = holderClass.getConstructor(int[].class).newInstance((Object) new int[8]);
      java.lang.reflect.Method replace = holderClass.getMethod("replace", int[].class);
      java.lang.reflect.Method sum = holderClass.getMethod("sumField", int.class);
      assertEquals(0L, sum.invoke(holder, 8), "computes what the original computes");
      run.join(run.start(() -> sum.invoke(holder, 8))); // forked after the construction: ordered
      assertEquals(Set.of(), run.racyFields());
      Thread writer = run.start(() -> replace.invoke(holder, (Object) new int[] {1, 1, 1, 1, 1, 1, 1, 1}));
      InstrumentedRun.awaitEndWithoutEdge(writer);
      run.join(run.start(() -> assertEquals(8L, sum.invoke(holder, 8))));
      FieldRaces races = run.races(SHAPES + "$Holder.data");
      assertNotNull(races, run.racyFields().toString());
      assertEquals("sumField", races.first().current().site().methodName());
      assertEquals("replace", races.first().previous().site().methodName());
      assertEquals(1, races.count(), "one check at the exit, not one per iteration");
      run.join(run.start(() -> sum.invoke(holder, 0))); // a loop that never ran its read checks nothing
    }
  }

  @Test
  void stridedAndShiftedRangesReportExactlyTheElementsTheLoopTouched() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(CountedLoopShapes.class);
      int[] a = new int[10];
      Thread writer = run.start(() -> InstrumentedRun.call(c, "fillEverySecond", a, 1, 5)); // 1, 3, 5, 7, 9
      InstrumentedRun.awaitEndWithoutEdge(writer);
      // the even elements only: none was written by the unordered writer
      run.join(run.start(() -> InstrumentedRun.call(c, "sumEverySecond", a, 0)));
      assertEquals(Set.of(), run.racyFields());
      // a[j + 1] for j in [2, 6): elements 3 to 6, of which the writer wrote 3 and 5
      run.join(run.start(() -> InstrumentedRun.call(c, "sumShifted", a, 2, 6)));
      FieldRaces races = run.races(SHAPES + ".fillEverySecond()[]");
      assertNotNull(races, run.racyFields().toString());
      assertEquals(Set.of(3, 5), new TreeSet<>(races.indices()));
      assertEquals("sumShifted", races.first().current().site().methodName());
      assertEquals("fillEverySecond", races.first().previous().site().methodName());
    }
  }

  @Test
  void aLoopLeftByABreakReportsExactlyTheElementsItRead() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(CountedLoopShapes.class);
      int[] from = new int[16];
      int[] to = new int[16];
      Thread writer = run.start(() -> {
        InstrumentedRun.call(c, "fill", from, 1);
        from[5] = -1; // plain test code: not instrumented, the fill's range write stands for it
      });
      InstrumentedRun.awaitEndWithoutEdge(writer);
      run.join(run.start(() -> InstrumentedRun.call(c, "copyUntilNegative", from, to)));
      FieldRaces races = run.races(SHAPES + ".fill()[]");
      assertNotNull(races, run.racyFields().toString());
      assertEquals(Set.of(0, 1, 2, 3, 4, 5), new TreeSet<>(races.indices()));
      assertEquals("copyUntilNegative", races.first().current().site().methodName());
      assertEquals(SHAPES, races.first().current().site().className());
      assertEquals("fill", races.first().previous().site().methodName());
      assertEquals(Set.of(SHAPES + ".fill()[]"), run.racyFields(), "to[] is written by one thread only");
    }
  }

  @Test
  void anExceptionInTheMiddleOfAHoistedLoopReportsNoElementItDidNotTouch() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(CountedLoopShapes.class);
      int[] divisors = new int[16];
      int[] quotients = new int[16];
      Thread writer = run.start(() -> InstrumentedRun.call(c, "fill", divisors, 1));
      InstrumentedRun.awaitEndWithoutEdge(writer);
      divisors[6] = 0; // not instrumented: the loop throws while reading element 6
      run.join(run.start(() -> InstrumentedRun.call(c, "divide", divisors, quotients, 16)));
      FieldRaces races = run.races(SHAPES + ".fill()[]");
      assertNotNull(races, run.racyFields().toString());
      Set<Integer> indices = new TreeSet<>(races.indices());
      assertTrue(Set.of(0, 1, 2, 3, 4, 5, 6).containsAll(indices), indices.toString());
      // the handler checks the iterations surely completed: one fewer than v - v0 when the throw's side of the
      // increment is not known
      assertTrue(indices.containsAll(Set.of(0, 1, 2, 3, 4)), indices.toString());
      assertEquals(0, run.internalErrors());
    }
  }

  @Test
  void anElementReadInEveryIterationIsCheckedOnlyIfTheLoopRan() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(CountedLoopShapes.class);
      int[] a = new int[6];
      Thread writer = run.start(() -> InstrumentedRun.call(c, "fill", a, 2));
      InstrumentedRun.awaitEndWithoutEdge(writer);
      run.join(run.start(() -> InstrumentedRun.call(c, "sumRepeated", a, 0)));
      assertEquals(Set.of(), run.racyFields(), "the inner loop never ran: a[i] was never read");
      run.join(run.start(() -> InstrumentedRun.call(c, "sumRepeated", a, 3)));
      FieldRaces races = run.races(SHAPES + ".fill()[]");
      assertNotNull(races, run.racyFields().toString());
      assertEquals(Set.of(0, 1, 2, 3, 4, 5), new TreeSet<>(races.indices()));
      assertEquals("sumRepeated", races.first().current().site().methodName());
    }
  }

  @Test
  void aRowThatChangesMidLoopGetsNoRangeCheckOnTheFirstRow() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(CountedLoopShapes.class);
      int[] first = new int[8];
      int[] other = new int[8];
      Thread writer = run.start(() -> InstrumentedRun.call(c, "fill", first, 1));
      InstrumentedRun.awaitEndWithoutEdge(writer);
      // writes first[0], then other[1..3]: a range check of first over [0, 4) would report 1..3 of first
      run.join(run.start(() -> InstrumentedRun.call(c, "rowSwappedMidLoop", new int[][] {first}, other, 4)));
      FieldRaces races = run.races(SHAPES + ".fill()[]");
      if (races != null) {
        assertEquals(List.of(0), races.indices());
      }
      assertEquals(0, run.internalErrors());
    }
  }

  @Test
  void rowsOfATwoDimensionalArrayAreCheckedByRange() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(CountedLoopShapes.class);
      int[][] m = new int[3][8];
      Thread writer = run.start(() -> InstrumentedRun.call(c, "fillRows", m, 1));
      InstrumentedRun.awaitEndWithoutEdge(writer);
      run.join(run.start(() -> InstrumentedRun.call(c, "copyUntilNegative", m[1], new int[8])));
      FieldRaces races = run.races(SHAPES + ".fillRows()[]");
      assertNotNull(races, run.racyFields().toString());
      assertEquals(Set.of(0, 1, 2, 3, 4, 5, 6, 7), new TreeSet<>(races.indices()));
      assertEquals("fillRows", races.first().previous().site().methodName());
    }
  }

  // ---- helpers ----

  private static ClassInstrumenter detect() {
    return new ClassInstrumenter(new SiteTable(), new FieldRegistry());
  }

  private Map<String, List<String>> hooksByMethod(ClassInstrumenter instrumenter) throws IOException {
    return hooksByMethod(instrumenter, CountedLoopShapes.class);
  }

  private Map<String, List<String>> hooksByMethod(ClassInstrumenter instrumenter, Class<?> shapes) throws IOException {
    byte[] out = instrumenter.instrument(ClassKind.APPLICATION, getClass().getClassLoader(), original(shapes)).bytes();
    assertNotNull(out);
    ClassNode node = new ClassNode();
    new ClassReader(out).accept(node, 0);
    Map<String, List<String>> hooks = new TreeMap<>();
    for (MethodNode m : node.methods) {
      List<String> calls = new ArrayList<>();
      for (AbstractInsnNode insn : m.instructions) {
        if (insn instanceof MethodInsnNode call && HookMethod.isOwner(call.owner)) {
          calls.add(call.name);
        }
      }
      hooks.put(m.name, calls);
    }
    return hooks;
  }

  private static MethodNode method(ClassNode node, String name) {
    for (MethodNode m : node.methods) {
      if (m.name.equals(name)) {
        return m;
      }
    }
    throw new AssertionError("no method " + name);
  }

  private static byte[] original() throws IOException {
    return original(CountedLoopShapes.class);
  }

  private static byte[] original(Class<?> shapes) throws IOException {
    try (InputStream in = LoopCheckHoisterTest.class.getClassLoader()
        .getResourceAsStream(shapes.getName().replace('.', '/') + ".class")) {
      return in.readAllBytes();
    }
  }
}
