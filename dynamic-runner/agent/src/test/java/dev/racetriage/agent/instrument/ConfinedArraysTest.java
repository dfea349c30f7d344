package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.instrument.fixtures.ArrayEscapes;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Which element accesses need no check because their array never leaves its frame: a varargs array for
 * {@code String.format}, a scratch buffer turned into a String and a local table lose their hooks (and their loops'
 * range checks); one returned, stored, passed, copied into, put in an array, merged with a shared one or captured
 * keeps them — and a captured array written by two threads still races.
 */
class ConfinedArraysTest {
  private static final String OWNER = "dev/racetriage/agent/instrument/fixtures/ArrayEscapes";

  private static byte[] original() throws Exception {
    try (InputStream in = ArrayEscapes.class.getResourceAsStream("ArrayEscapes.class")) {
      return in.readAllBytes();
    }
  }

  private static MethodNode method(String name) throws Exception {
    ClassNode node = new ClassNode();
    new ClassReader(original()).accept(node, 0);
    for (MethodNode m : node.methods) {
      if (m.name.equals(name)) {
        return m;
      }
    }
    throw new AssertionError("no method " + name);
  }

  /** For each array load and store of the method: whether its array is confined. */
  private static List<Boolean> accesses(String name) throws Exception {
    MethodNode m = method(name);
    Set<AbstractInsnNode> confined = ConfinedArrays.find(OWNER, m).accesses();
    List<Boolean> accesses = new ArrayList<>();
    for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
      if (ConfinedArrays.isArrayLoad(insn.getOpcode()) || ConfinedArrays.isArrayStore(insn.getOpcode())) {
        accesses.add(confined.contains(insn));
      }
    }
    return accesses;
  }

  @Test
  void varargsScratchBuffersAndLocalTablesAreConfined() throws Exception {
    for (String name : List.of("varargs", "scratch", "sumLocal", "copied")) {
      List<Boolean> a = accesses(name);
      assertFalse(a.isEmpty(), name);
      assertTrue(a.stream().allMatch(c -> c), name + ": " + a);
    }
    assertEquals(4, accesses("sumLocal").size());
  }

  @Test
  void bulkCallsOnConfinedArraysAreConfinedAndACopyIntoAnEscapingArrayIsNot() throws Exception {
    assertEquals(1, ConfinedArrays.find(OWNER, method("scratch")).bulkCalls().size()); // new String(buf)
    assertEquals(2, ConfinedArrays.find(OWNER, method("sumLocal")).bulkCalls().size()); // clone, Arrays.hashCode
    // a copy from a shared array into a confined one: the copy keeps its hook (the shared array's range is checked)
    assertEquals(Set.of(), ConfinedArrays.find(OWNER, method("copied")).bulkCalls());
  }

  @Test
  void everyWayOutOfTheFrameKeepsTheChecks() throws Exception {
    for (String name : List.of("returned", "stored", "passed", "inArray", "merged", "pair", "printed", "aliased")) {
      List<Boolean> a = accesses(name);
      assertFalse(a.stream().anyMatch(c -> c), name + ": " + a);
    }
    assertEquals(List.of(false, false), accesses("merged"));
  }

  @Test
  void theInstrumentedConfinedMethodsCallNoElementHook() throws Exception {
    byte[] out = new ClassInstrumenter(new dev.racetriage.agent.detect.SiteTable(),
        new dev.racetriage.agent.runtime.FieldRegistry()).instrument(ClassKind.APPLICATION,
        getClass().getClassLoader(), original()).bytes();
    Map<String, List<String>> hooks = new HashMap<>();
    ClassInstrumenterTest.callsByMethod(out, HookMethod.OWNER).forEach((method, calls) -> {
      List<String> checks = calls.stream().filter(c -> c.endsWith("Element") || c.endsWith("Range")).toList();
      if (!checks.isEmpty()) {
        hooks.put(method, checks);
      }
    });
    Map<String, List<String>> bulkHooks = ClassInstrumenterTest.callsByMethod(out, BulkHookMethod.OWNER);
    for (String confined : List.of("varargs", "scratch", "sumLocal", "copied")) {
      assertFalse(hooks.containsKey(confined), confined + ": " + hooks);
    }
    assertFalse(bulkHooks.containsKey("scratch"), bulkHooks.toString()); // new String(buf)
    assertFalse(bulkHooks.containsKey("sumLocal"), bulkHooks.toString()); // a.clone(), Arrays.hashCode(a)
    assertTrue(bulkHooks.containsKey("copied"), bulkHooks.toString()); // reads the shared array
    for (String escaping : List.of("returned", "stored", "passed", "inArray", "merged")) {
      assertTrue(hooks.containsKey(escaping), escaping + ": " + hooks);
    }
  }

  @Test
  void aMethodWithoutArrayAllocationsIsNotAnalysed() throws Exception {
    assertSame(ConfinedArrays.Confined.NONE, ConfinedArrays.find(OWNER, method("first")));
  }

  @Test
  void aMethodTooLargeToAnalyseKeepsItsChecks() {
    MethodNode big = new MethodNode(Opcodes.ASM9, Opcodes.ACC_STATIC, "big", "()V", null, null);
    big.instructions.add(new org.objectweb.asm.tree.InsnNode(Opcodes.ICONST_1));
    big.instructions.add(new org.objectweb.asm.tree.IntInsnNode(Opcodes.NEWARRAY, Opcodes.T_INT));
    big.instructions.add(new org.objectweb.asm.tree.VarInsnNode(Opcodes.ASTORE, 0));
    big.instructions.add(new org.objectweb.asm.tree.VarInsnNode(Opcodes.ALOAD, 0));
    big.instructions.add(new org.objectweb.asm.tree.InsnNode(Opcodes.ICONST_0));
    big.instructions.add(new org.objectweb.asm.tree.InsnNode(Opcodes.IALOAD));
    big.instructions.add(new org.objectweb.asm.tree.InsnNode(Opcodes.POP));
    big.instructions.add(new org.objectweb.asm.tree.InsnNode(Opcodes.RETURN));
    big.maxLocals = 1;
    big.maxStack = 2;
    assertEquals(1, ConfinedArrays.find(OWNER, big).accesses().size()); // small: analysed, the load confined
    for (int i = 0; i < 20_000; i++) {
      big.instructions.insert(new org.objectweb.asm.tree.InsnNode(Opcodes.NOP));
    }
    big.maxLocals = 200;
    assertTrue(FrameEscapes.tooLarge(big));
    assertSame(ConfinedArrays.Confined.NONE, ConfinedArrays.find(OWNER, big));
  }

  @Test
  void aCapturedArrayWrittenByTwoThreadsStillRaces() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(ArrayEscapes.class);
      Runnable[] pair = (Runnable[]) InstrumentedRun.call(c, "pair");
      InstrumentedRun.awaitEndWithoutEdge(run.start(pair[0]::run));
      InstrumentedRun.awaitEndWithoutEdge(run.start(pair[1]::run));
      Set<String> racy = run.racyFields();
      assertEquals(1, racy.size(), racy.toString());
      assertTrue(racy.iterator().next().endsWith("[]"), racy.toString());
      assertEquals(0, run.internalErrors());
    }
  }

  @Test
  void confinedArraysOnTwoThreadsReportNothingAndComputeTheSame() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(ArrayEscapes.class);
      for (int t = 0; t < 2; t++) {
        InstrumentedRun.awaitEndWithoutEdge(run.start(() -> {
          InstrumentedRun.call(c, "varargs", 1, 2);
          InstrumentedRun.call(c, "scratch", 40);
          InstrumentedRun.call(c, "sumLocal", 300);
        }));
      }
      assertEquals("1-2", InstrumentedRun.call(c, "varargs", 1, 2));
      assertEquals(ArrayEscapes.scratch(40), InstrumentedRun.call(c, "scratch", 40));
      assertEquals(ArrayEscapes.sumLocal(300), InstrumentedRun.call(c, "sumLocal", 300));
      assertEquals(Set.of(), run.racyFields());
      assertEquals(0, run.internalErrors());
    }
  }
}
