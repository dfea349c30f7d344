package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.detect.FieldRaces;
import dev.racetriage.agent.detect.SiteTable;
import dev.racetriage.agent.instrument.fixtures.RedundantAccessShapes;
import dev.racetriage.agent.instrument.fixtures.RedundantAccessShapes.Box;
import dev.racetriage.agent.runtime.FieldRegistry;
import dev.racetriage.agent.runtime.JumbleTargets;
import java.io.IOException;
import java.io.InputStream;
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
 * Which accesses lose their check because an earlier write check of the same location covers them
 * ({@link RedundantChecks}), which keep it, that the rewritten code computes the same, and that a race on a location
 * whose later accesses lost their checks is still reported.
 */
class RedundantChecksTest {
  private static final String SHAPES = RedundantAccessShapes.class.getName();

  @Test
  void anAccessAfterAWriteOfTheSameLocationWithNothingBetweenLosesItsCheck() throws IOException {
    Map<String, Map<String, Integer>> hooks = hooks(detect());
    assertEquals(Map.of("writeField", 1), hooks.get("writeThenRead"));
    assertEquals(Map.of("writeField", 1), hooks.get("writeTwice"));
    assertEquals(Map.of("writeField", 2), hooks.get("writtenOnBothPaths"));
    assertEquals(Map.of("writeField", 1), hooks.get("loopAfterWrite"), "the loop's reads and writes are covered");
    assertEquals(Map.of("writeStatic", 1), hooks.get("statics"));
    assertEquals(Map.of("writeRange", 2, "writeField", 1), hooks.get("afterHoistedLoop"),
        "the loop's range checks (at its exit and in its catch-all), and the field's write covering its read");
    assertEquals(Map.of("writeElement", 1, "readElement", 1), hooks.get("elements"), "a[0] keeps its read check");
    assertEquals(Map.of("writeField", 1, "arrayInField", 3), hooks.get("arrayField"),
        "both arrays stored, and the one read, are still named after the field");
  }

  @Test
  void synchronisationReassignmentAPathWithoutAWriteAndHandlersKeepTheCheck() throws IOException {
    Map<String, Map<String, Integer>> hooks = hooks(detect());
    assertEquals(Map.of("readField", 2), hooks.get("readTwice"), "a read covers nothing");
    for (String m : List.of("callBetween", "monitorBetween", "volatileBetween", "localReassigned",
        "writtenOnOnePath")) {
      assertEquals(1, hooks.get(m).getOrDefault("readField", 0), m + ": " + hooks.get(m));
      assertEquals(1, hooks.get(m).getOrDefault("writeField", 0), m + ": " + hooks.get(m));
    }
    assertEquals(Map.of("writeField", 2, "readField", 3), hooks.get("loopWithCall"),
        "the back edge comes from a call: the header's read, the body's read and write, the final read keep theirs");
    assertEquals(Map.of("writeField", 1, "readField", 1), hooks.get("handler"),
        "the try's write and read are covered, the handler's read is not");
    assertEquals(Map.of("writeElement", 1, "readElement", 1), hooks.get("indexChanged"));
  }

  @Test
  void readsOfFieldsOfOneObjectOnOneLineShareOneHookAfterTheLast() throws IOException {
    Map<String, Map<String, Integer>> hooks = hooks(detect());
    assertEquals(Map.of("readFields", 2), hooks.get("dot"));
    assertEquals(Map.of("readField", 1, "readFields", 1), hooks.get("callInTheLine"));
    assertEquals(Map.of("readField", 2), hooks.get("twoLines"));
  }

  @Test
  void aGroupedReadRacingWithAnUnorderedWriteIsReportedAtTheLine() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(RedundantAccessShapes.class);
      Class<?> vec = c.getClassLoader().loadClass(SHAPES + "$Vec");
      Object a = newBox(vec);
      Object b = newBox(vec);
      Thread writer = run.start(() -> vec.getField("y").setDouble(a, 2.0)); // reflection: not instrumented
      InstrumentedRun.awaitEndWithoutEdge(writer);
      Thread first = run.start(() -> InstrumentedRun.call(c, "dot", a, b));
      InstrumentedRun.awaitEndWithoutEdge(first);
      Thread second = run.start(() -> {
        var set = c.getDeclaredMethod("writeVecY", vec, double.class);
        set.setAccessible(true);
        set.invoke(null, a, 3.0);
      });
      InstrumentedRun.awaitEndWithoutEdge(second);
      Thread third = run.start(() -> InstrumentedRun.call(c, "dot", a, b));
      InstrumentedRun.awaitEndWithoutEdge(third);
      assertNotNull(run.races(SHAPES + "$Vec.y"), run.racyFields().toString());
      assertNull(run.races(SHAPES + "$Vec.x"), "x is only read");
      assertEquals(0, run.internalErrors());
      assertEquals(2.0 * 0 + 3.0 * 0, (double) InstrumentedRun.call(c, "dot", a, b));
    }
  }

  @Test
  void elementReadsThatFillARangeInAStraightLineStretchShareOneRangeCheck() throws IOException {
    Map<String, Map<String, Integer>> hooks = hooks(detect());
    assertEquals(Map.of("readElements", 1), hooks.get("littleEndian"), "four lines, one stretch");
    assertEquals(Map.of("readElements", 1), hooks.get("sumOfFour"));
    assertEquals(Map.of("readElement", 2), hooks.get("withAGap"));
    assertEquals(Map.of("readElement", 2), hooks.get("callBetweenElements"));
    assertEquals(Map.of("readElement", 2, "readElements", 1), hooks.get("branchBetweenElements"),
        "the branch splits the first two; a[i] and a[i + 1] after the store of i are one group");
    assertEquals(Map.of("readElements", 2, "writeElement", 1), hooks.get("storeBetweenElements"));
    assertEquals(Map.of("writeElements", 1), hooks.get("putLittleEndian"));
    assertEquals(Map.of("readElements", 1), hooks.get("readIncrementing"), "b[p++]: the offsets move with p");
    assertEquals(Map.of("readElements", 1, "readElement", 1, "writeElements", 1, "writeElement", 1),
        hooks.get("acrossQuietCalls"), "the reads' stretch goes on past a quiet callee, not past a store; the writes'"
        + " ends at a callee");
    assertEquals(Map.of("readElements", 1, "writeElements", 1, "writeElement", 2, "readElement", 2,
        "readField", 4), withoutNaming(hooks.get("mix")),
        "the final field's array is one array at every read; the other field's may change between two");
    assertEquals(Map.of("readElements", 1, "arrayInField", 1), hooks.get("tableSum"));
    assertEquals(Map.of("writeElements", 1), hooks.get("putDescending"));
    assertEquals(1 + 4, hooks.get("mix").get("arrayInField"),
        "the final field's array is named at its first read only; the other field's at each of its four");
  }

  private static Map<String, Integer> withoutNaming(Map<String, Integer> hooks) {
    Map<String, Integer> out = new TreeMap<>(hooks);
    out.remove("arrayInField");
    return out;
  }

  @Test
  void aGroupedElementReadRacingWithAnUnorderedWriteIsReportedAtItsElement() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> plain = run.loadPlain(RedundantAccessShapes.class);
      Class<?> c = run.load(RedundantAccessShapes.class);
      for (Class<?> k : List.of(plain, c)) {
        assertEquals(0x04030201, InstrumentedRun.call(k, "littleEndian", new byte[] {9, 1, 2, 3, 4}, 1));
        assertEquals(10L, InstrumentedRun.call(k, "sumOfFour", new long[] {1, 2, 3, 4}));
        assertEquals(1 + 2 + 2 + 3, InstrumentedRun.call(k, "branchBetweenElements", new int[] {1, 2, 3}, 0));
        int[] a = {1, 2, 0, 4, 5};
        assertEquals(9, InstrumentedRun.call(k, "storeBetweenElements", a, 0));
        assertEquals(3, a[2]);
        assertThrows(ArrayIndexOutOfBoundsException.class,
            () -> InstrumentedRun.call(k, "littleEndian", new byte[4], 1));
        assertEquals(0x04030201 + 5, InstrumentedRun.call(k, "readIncrementing", new byte[] {9, 1, 2, 3, 4}, 1));
        int[] out = new int[3];
        int x = (int) InstrumentedRun.call(k, "acrossQuietCalls", new int[] {0, 5, 7, 11}, 1, out);
        assertEquals(((5 * 3 % 65537) * 7 % 65537) * 11 % 65537, x);
        assertArrayEquals(new int[] {105, 106, x}, out);
        assertEquals(10, InstrumentedRun.call(k, "tableSum"));
        byte[] down = new byte[4];
        InstrumentedRun.call(k, "putDescending", down, 3, 0x030201);
        assertArrayEquals(new byte[] {0, 3, 2, 1}, down);
        byte[] le = new byte[6];
        InstrumentedRun.call(k, "putLittleEndian", le, 1, 0x04030201);
        assertArrayEquals(new byte[] {0, 1, 2, 3, 4, 0}, le);
        Object h = k.getClassLoader().loadClass(SHAPES + "$Hasher").getDeclaredConstructor().newInstance();
        assertEquals(0L, InstrumentedRun.call(k, "mix", h));
        assertEquals(1L ^ 2 ^ 3 ^ 4 ^ 1 ^ 2, InstrumentedRun.call(k, "mix", h));
      }
      byte[] b = new byte[8];
      Thread first = run.start(() -> InstrumentedRun.call(c, "littleEndian", b, 2));
      InstrumentedRun.awaitEndWithoutEdge(first);
      Thread writer = run.start(() -> InstrumentedRun.call(c, "writeByte", b, 4, (byte) 7));
      InstrumentedRun.awaitEndWithoutEdge(writer);
      assertEquals(Set.of(), run.racyFields(), "a write after unordered reads: the h-summary reports WR and WW");
      Thread second = run.start(() -> InstrumentedRun.call(c, "littleEndian", b, 2));
      InstrumentedRun.awaitEndWithoutEdge(second);
      FieldRaces races = run.races(run.racyFields().stream().filter(k -> k.endsWith("[]")).findFirst()
          .orElseThrow(() -> new AssertionError("no element race: " + run.racyFields())));
      assertEquals(Set.of(4), new TreeSet<>(races.indices()), "b[4] only, the third of the four reads");
      Thread third = run.start(() -> InstrumentedRun.call(c, "littleEndian", b, 0));
      InstrumentedRun.awaitEndWithoutEdge(third);
      assertEquals(Set.of(4), new TreeSet<>(races.indices()), "b[0..4) does not hold b[4]");
      // grouped writes are each recorded: a later unordered read of any of them races
      byte[] w = new byte[4];
      Thread putter = run.start(() -> InstrumentedRun.call(c, "putLittleEndian", w, 0, -1));
      InstrumentedRun.awaitEndWithoutEdge(putter);
      Thread reader = run.start(() -> InstrumentedRun.call(c, "littleEndian", w, 0));
      InstrumentedRun.awaitEndWithoutEdge(reader);
      Set<Integer> indices = new TreeSet<>();
      run.racyFields().stream().filter(k -> k.endsWith("[]")).forEach(k -> indices.addAll(run.races(k).indices()));
      assertTrue(indices.containsAll(Set.of(0, 1, 2, 3)), indices + " in " + run.racyFields());
      assertEquals(0, run.internalErrors());
    }
    // a decreasing index: the range is b[1..4), so b[0] does not race (a run of its own: no earlier array races)
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(RedundantAccessShapes.class);
      byte[] d = new byte[4];
      Thread down = run.start(() -> InstrumentedRun.call(c, "putDescending", d, 3, 7));
      InstrumentedRun.awaitEndWithoutEdge(down);
      Thread up = run.start(() -> InstrumentedRun.call(c, "littleEndian", d, 0));
      InstrumentedRun.awaitEndWithoutEdge(up);
      Set<Integer> racing = new TreeSet<>();
      run.racyFields().stream().filter(k -> k.endsWith("[]")).forEach(k -> racing.addAll(run.races(k).indices()));
      assertEquals(Set.of(1, 2, 3), racing, run.racyFields().toString());
      assertEquals(0, run.internalErrors());
    }
  }

  @Test
  void aMethodWithATransparentSectionGroupsNoReads() throws IOException {
    byte[] original = original();
    ClassNode node = new ClassNode();
    new ClassReader(original).accept(node, 0);
    MethodNode dot = node.methods.stream().filter(m -> m.name.equals("dot")).findFirst().orElseThrow();
    ClassContext ctx = new ClassContext(node.name, null, node.version, getClass().getClassLoader(),
        new ClassHierarchy(), IdPlaceholders.forClass(original), null);
    assertEquals(2, RedundantChecks.find(node.name, dot, ctx, LoopCheckHoister.Hoisted.NONE, false).combined().size());
    // the predictive analysis orders a transparent section by the conflicts of its accesses in order: keep it
    assertEquals(Map.of(), RedundantChecks.find(node.name, dot, ctx, LoopCheckHoister.Hoisted.NONE, true).combined());
  }

  @Test
  void jumbleModeAndTheRuleSwitchedOffKeepEveryCheck() throws IOException {
    Map<String, Map<String, Integer>> jumble = hooks(new ClassInstrumenter(new SiteTable(), new FieldRegistry(),
        new JumbleTargets(List.of(SHAPES + "$Box.v")), null));
    assertEquals(2, jumble.get("writeThenRead").values().stream().mapToInt(Integer::intValue).sum(),
        jumble.get("writeThenRead").toString());
    RedundantChecks.rule = RedundantChecks.Rule.OFF;
    try {
      assertEquals(Map.of("writeField", 1, "readField", 1), hooks(detect()).get("writeThenRead"));
    } finally {
      RedundantChecks.rule = RedundantChecks.Rule.WRITES;
    }
  }

  @Test
  void rewrittenCodeComputesWhatTheOriginalComputes() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> plain = run.loadPlain(RedundantAccessShapes.class);
      Class<?> checked = run.load(RedundantAccessShapes.class);
      for (Class<?> c : List.of(plain, checked)) {
        Class<?> box = c.getClassLoader().loadClass(SHAPES + "$Box");
        assertEquals(1, InstrumentedRun.call(c, "writeThenRead", newBox(box)));
        assertEquals(2, InstrumentedRun.call(c, "writtenOnBothPaths", newBox(box), false));
        assertEquals(8, InstrumentedRun.call(c, "loopAfterWrite", newBox(box), 7));
        assertEquals(1, InstrumentedRun.call(c, "handler", newBox(box), 0));
        assertEquals(5, InstrumentedRun.call(c, "handler", newBox(box), 2));
        int[] a = {9, 0, 0};
        assertEquals(12, InstrumentedRun.call(c, "elements", a, 2));
        assertArrayEquals(new int[] {9, 0, 3}, a);
        assertEquals(0, InstrumentedRun.call(c, "indexChanged", new int[] {5, 0}, 0));
        assertEquals(4, InstrumentedRun.call(c, "statics", 3));
        int[] zeroed = {1, 2, 3};
        assertEquals(2, InstrumentedRun.call(c, "afterHoistedLoop", zeroed, newBox(box), 2));
        assertArrayEquals(new int[] {0, 0, 3}, zeroed);
        assertEquals(3, ((int[]) InstrumentedRun.call(c, "arrayField", newBox(box), 3)).length);
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> InstrumentedRun.call(c, "indexChanged",
            new int[1], 0));
      }
      assertEquals(0, run.internalErrors());
    }
  }

  @Test
  void aRaceOnALocationWhoseLaterAccessesLostTheirChecksIsStillReported() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(RedundantAccessShapes.class);
      Object box = newBox(c.getClassLoader().loadClass(SHAPES + "$Box"));
      Thread first = run.start(() -> InstrumentedRun.call(c, "writeThenRead", box));
      InstrumentedRun.awaitEndWithoutEdge(first);
      assertNull(run.races(SHAPES + "$Box.v"), "one thread: nothing yet");
      // the second thread's write races with the first's write (its read lost its check)
      Thread second = run.start(() -> InstrumentedRun.call(c, "writeTwice", box, 5));
      InstrumentedRun.awaitEndWithoutEdge(second);
      assertNotNull(run.races(SHAPES + "$Box.v"), run.racyFields().toString());
    }
  }

  private static Object newBox(Class<?> box) throws ReflectiveOperationException {
    var ctor = box.getDeclaredConstructor();
    ctor.setAccessible(true);
    return ctor.newInstance();
  }

  private static ClassInstrumenter detect() {
    return new ClassInstrumenter(new SiteTable(), new FieldRegistry());
  }

  private byte[] original() throws IOException {
    try (InputStream in = getClass().getClassLoader().getResourceAsStream(SHAPES.replace('.', '/') + ".class")) {
      return in.readAllBytes();
    }
  }

  /** Per method, the count of each access hook (and array naming) the instrumented code calls. */
  private Map<String, Map<String, Integer>> hooks(ClassInstrumenter instrumenter) throws IOException {
    byte[] original = original();
    byte[] out = instrumenter.instrument(ClassKind.APPLICATION, getClass().getClassLoader(), original).bytes();
    assertNotNull(out);
    ClassNode node = new ClassNode();
    new ClassReader(out).accept(node, 0);
    Map<String, Map<String, Integer>> hooks = new TreeMap<>();
    for (MethodNode m : node.methods) {
      Map<String, Integer> calls = new TreeMap<>();
      for (AbstractInsnNode insn : m.instructions) {
        if (insn instanceof MethodInsnNode call && (HookMethod.isOwner(call.owner)
            || call.owner.contains("JumbleHooks")) && !call.name.startsWith("monitor")
            && !call.name.equals(HookMethod.OWNED_SHADOW.methodName())) { // a read hook's guard, not a check
          calls.merge(call.name, 1, Integer::sum);
        }
      }
      hooks.put(m.name, calls);
    }
    return hooks;
  }
}
