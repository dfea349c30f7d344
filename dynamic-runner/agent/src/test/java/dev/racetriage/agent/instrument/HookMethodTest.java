package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.runtime.HookEntry;
import dev.racetriage.agent.runtime.Hooks;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

class HookMethodTest {

  @Test
  void everyHookTheInstrumenterCallsExistsWithItsDescriptor() throws Exception {
    assertEquals(HookMethod.OWNER, Type.getInternalName(Hooks.class));
    assertEquals(HookMethod.ENTRY, Type.getInternalName(HookEntry.class));
    for (HookMethod hook : HookMethod.values()) {
      assertTrue(HookMethod.isOwner(hook.owner()), hook.name());
      assertTrue(declares(Hooks.class, hook), "Hooks lacks " + hook.methodName() + hook.descriptor());
      if (hook.owner().equals(HookMethod.ENTRY)) {
        assertTrue(declares(HookEntry.class, hook), "HookEntry lacks " + hook.methodName() + hook.descriptor());
      }
    }
    for (HookMethod hook : List.of(HookMethod.READ_ELEMENT, HookMethod.WRITE_ELEMENT, HookMethod.READ_RANGE,
        HookMethod.WRITE_RANGE, HookMethod.READ_RANGE_STRIDED, HookMethod.WRITE_RANGE_STRIDED)) {
      assertEquals(HookMethod.ENTRY, hook.owner(), hook.name()); // the element hooks go through the forwarders
    }
    assertEquals(Hooks.SYNC_ACQUIRE, HookMethod.SYNC_ACQUIRE);
    assertEquals(Hooks.SYNC_RELEASE, HookMethod.SYNC_RELEASE);
  }

  /**
   * Each forwarder the instrumenter calls is branch-free, makes one call, to the hook of the same name and descriptor,
   * and is kept out of line (its compiled code must stay in use: see HookEntry); HookEntry has nothing else.
   */
  @Test
  void everyEntryForwardsToItsHookWithoutABranch() throws IOException {
    ClassNode entry = new ClassNode();
    try (InputStream in = HookEntry.class.getResourceAsStream("HookEntry.class")) {
      new ClassReader(in.readAllBytes()).accept(entry, 0);
    }
    int forwarders = 0;
    for (HookMethod hook : HookMethod.values()) {
      if (!hook.owner().equals(HookMethod.ENTRY)) {
        continue;
      }
      forwarders++;
      MethodNode m = entry.methods.stream()
          .filter(n -> n.name.equals(hook.methodName()) && n.desc.equals(hook.descriptor()))
          .findFirst().orElseThrow();
      List<MethodInsnNode> calls = new ArrayList<>();
      for (AbstractInsnNode insn : m.instructions) {
        assertTrue(!(insn instanceof JumpInsnNode) && insn.getOpcode() != Opcodes.TABLESWITCH
            && insn.getOpcode() != Opcodes.LOOKUPSWITCH, hook + " branches");
        if (insn instanceof MethodInsnNode call) {
          calls.add(call);
        }
      }
      assertEquals(1, calls.size(), hook + " makes one call");
      MethodInsnNode call = calls.get(0);
      assertEquals(Type.getInternalName(Hooks.class) + "." + hook.methodName() + hook.descriptor(),
          call.owner + "." + call.name + call.desc);
      String annotation = "Ljdk/internal/vm/annotation/DontInline;";
      List<AnnotationNode> annotations = new ArrayList<>();
      if (m.visibleAnnotations != null) {
        annotations.addAll(m.visibleAnnotations);
      }
      if (m.invisibleAnnotations != null) {
        annotations.addAll(m.invisibleAnnotations);
      }
      assertTrue(annotations.stream().anyMatch(a -> a.desc.equals(annotation)), hook + " lacks " + annotation);
    }
    long declared = entry.methods.stream().filter(n -> !n.name.startsWith("<")).count();
    assertEquals(forwarders, declared, "HookEntry declares only the forwarders");
  }

  private static boolean declares(Class<?> type, HookMethod hook) {
    for (Method m : type.getDeclaredMethods()) {
      if (m.getName().equals(hook.methodName()) && Type.getMethodDescriptor(m).equals(hook.descriptor())) {
        return Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers());
      }
    }
    return false;
  }
}
