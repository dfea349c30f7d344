package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.instrument.fixtures.ContainerEscapes;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Which container calls need no check because the container never leaves its frame: confined builders and lists
 * lose their hooks; one returned, stored, passed, captured, put in an array, escaping through a view or a fluent
 * result, or merged with a shared one keeps them — and a captured list used by two threads still races.
 */
class ConfinedContainersTest {
  private static final String OWNER = "dev/racetriage/agent/instrument/fixtures/ContainerEscapes";

  @BeforeEach
  void enable() {
    ContainerModel.enable(true);
  }

  @AfterEach
  void disable() {
    ContainerModel.enable(false);
  }

  private static MethodNode method(String name) throws Exception {
    ClassNode node = new ClassNode();
    try (InputStream in = ContainerEscapes.class.getResourceAsStream("ContainerEscapes.class")) {
      new ClassReader(in.readAllBytes()).accept(node, 0);
    }
    for (MethodNode m : node.methods) {
      if (m.name.equals(name)) {
        return m;
      }
    }
    throw new AssertionError("no method " + name);
  }

  /** For each container call of the method: "owner.name" and whether its receiver is confined. */
  private static List<String> calls(String name) throws Exception {
    MethodNode m = method(name);
    int[] masks = ConfinedContainers.find(OWNER, m);
    List<String> calls = new ArrayList<>();
    int ordinal = 0;
    for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
      if (insn instanceof MethodInsnNode call && ConfinedContainers.isContainerCall(call)) {
        boolean confined = ordinal < masks.length && (masks[ordinal] & 1) != 0;
        calls.add(call.name + (confined ? " confined" : " checked"));
        ordinal++;
      }
    }
    return calls;
  }

  @Test
  void aBuilderChainAndALocalListAreConfined() throws Exception {
    assertEquals(List.of("append confined", "append confined", "append confined", "toString confined"),
        calls("concat"));
    List<String> local = calls("localList");
    assertFalse(local.isEmpty());
    assertTrue(local.stream().allMatch(c -> c.endsWith(" confined")), local.toString());
  }

  @Test
  void everyWayOutOfTheFrameKeepsTheChecks() throws Exception {
    for (String escaping : List.of("returned", "stored", "passed", "captured", "viewEscapes", "fluentEscapes",
        "inArray", "mergedWithShared", "pair")) {
      List<String> calls = calls(escaping);
      assertFalse(calls.isEmpty(), escaping);
      assertTrue(calls.stream().allMatch(c -> c.endsWith(" checked")), escaping + ": " + calls);
    }
  }

  @Test
  void theInstrumentedConfinedMethodsCallNoContainerHook() throws Exception {
    byte[] original;
    try (InputStream in = ContainerEscapes.class.getResourceAsStream("ContainerEscapes.class")) {
      original = in.readAllBytes();
    }
    byte[] out = new ClassInstrumenter(new dev.racetriage.agent.detect.SiteTable(),
        new dev.racetriage.agent.runtime.FieldRegistry()).instrument(ClassKind.APPLICATION,
        getClass().getClassLoader(), original).bytes();
    java.util.Map<String, List<String>> hooks =
        ClassInstrumenterTest.callsByMethod(out, EventInstrumenter.CONTAINER_HOOKS);
    assertFalse(hooks.containsKey("concat"), hooks.toString());
    assertFalse(hooks.containsKey("localList"), hooks.toString());
    assertTrue(hooks.containsKey("returned"), hooks.toString());
    assertTrue(hooks.containsKey("captured"), hooks.toString());
  }

  @Test
  void aMethodWithoutAllocationsIsNotAnalysed() throws Exception {
    assertEquals(0, ConfinedContainers.find(OWNER, method("keep")).length);
  }

  @Test
  void aCapturedListUsedByTwoThreadsStillRaces() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(ContainerEscapes.class);
      Runnable[] pair = (Runnable[]) InstrumentedRun.call(c, "pair");
      InstrumentedRun.awaitEndWithoutEdge(run.start(pair[0]::run));
      InstrumentedRun.awaitEndWithoutEdge(run.start(pair[1]::run));
      Set<String> racy = run.racyFields();
      assertEquals(1, racy.size(), racy.toString());
      assertTrue(racy.iterator().next().endsWith("{}"), racy.toString());
      assertEquals(0, run.internalErrors());
    }
  }

  @Test
  void confinedContainersOnTwoThreadsReportNothing() throws Throwable {
    try (InstrumentedRun run = new InstrumentedRun()) {
      Class<?> c = run.load(ContainerEscapes.class);
      InstrumentedRun.awaitEndWithoutEdge(run.start(() -> {
        InstrumentedRun.call(c, "concat", "a", 1);
        InstrumentedRun.call(c, "localList", 50);
      }));
      InstrumentedRun.awaitEndWithoutEdge(run.start(() -> {
        InstrumentedRun.call(c, "concat", "b", 2);
        InstrumentedRun.call(c, "localList", 50);
      }));
      assertEquals("Xa1", InstrumentedRun.call(c, "concat", "a", 1));
      assertEquals(Set.of(), run.racyFields());
      assertEquals(0, run.internalErrors());
    }
  }
}
