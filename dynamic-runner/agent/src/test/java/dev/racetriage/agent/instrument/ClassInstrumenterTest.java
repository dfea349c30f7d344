package dev.racetriage.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.detect.SiteTable;
import dev.racetriage.agent.instrument.fixtures.MonitorExits;
import dev.racetriage.agent.runtime.FieldRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.HashMap;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

class ClassInstrumenterTest {
  private final ClassInstrumenter instrumenter = new ClassInstrumenter(new SiteTable(), new FieldRegistry());

  @Test
  void aClassFileNewerThanAsmReadsIsLeftAloneWithItsVersionInTheReason() throws IOException {
    byte[] bytes = bytesOf("dev/racetriage/agent/instrument/fixtures/MonitorExits");
    bytes[6] = 0;
    bytes[7] = 80;
    ClassInstrumenter.Outcome outcome = instrumenter.instrument(ClassKind.APPLICATION, null, bytes);
    assertNull(outcome.bytes());
    assertTrue(outcome.skipReason().startsWith("class-file version 80 (Java 36) is newer"), outcome.skipReason());
  }

  @Test
  void aMethodThatOutgrows64KiBLeavesTheClassAloneAndNamesTheMethod() {
    ClassInstrumenter.Outcome outcome = instrumenter.instrument(ClassKind.APPLICATION, null, hugeReader(11_000));
    assertNull(outcome.bytes());
    assertTrue(outcome.skipReason().startsWith("method sum()I is larger than 64 KiB after instrumentation"),
        outcome.skipReason());
    assertNotNull(instrumenter.instrument(ClassKind.APPLICATION, null, hugeReader(100)).bytes());
  }

  @Test
  void garbageIsReportedNotThrown() {
    ClassInstrumenter.Outcome outcome = instrumenter.instrument(ClassKind.APPLICATION, null, new byte[] {1, 2, 3});
    assertNull(outcome.bytes());
    assertTrue(outcome.skipReason().contains("could not be instrumented"), outcome.skipReason());
  }

  @Test
  void applicationCodeGetsAccessChecksAndMonitorEvents() throws IOException {
    byte[] out = instrumenter.instrument(ClassKind.APPLICATION, getClass().getClassLoader(),
        bytesOf(MonitorExits.class.getName().replace('.', '/'))).bytes();
    List<String> hooks = hookCalls(out);
    assertTrue(hooks.contains("writeStatic"), hooks.toString());
    assertTrue(hooks.contains("readStatic"), hooks.toString());
    assertTrue(hooks.contains("monitorEnter") && hooks.contains("monitorExit"), hooks.toString());
    assertTrue(hooks.contains("clinitEnter") && hooks.contains("clinitExit"), hooks.toString());
  }

  @Test
  void trustedJdkCodeGetsSynchronisationEventsButNoAccessChecks() throws IOException {
    List<String> atomic = hookCalls(instrumenter.instrument(ClassKind.TRUSTED_JDK, null,
        bytesOf("java/util/concurrent/atomic/AtomicInteger")).bytes());
    assertTrue(atomic.contains("atomicBefore") && atomic.contains("atomicAfter"), atomic.toString());
    // get() and set() of its volatile value: the object's atomic clock (see ObjectShadow), no field clock
    assertFalse(atomic.contains("volatileRead") || atomic.contains("volatileWrite"), atomic.toString());
    List<String> vector = hookCalls(instrumenter.instrument(ClassKind.TRUSTED_JDK, null,
        bytesOf("java/util/Vector")).bytes());
    assertTrue(vector.contains("monitorEnter") && vector.contains("monitorExit"), vector.toString());
    for (List<String> hooks : List.of(atomic, vector)) {
      assertFalse(hooks.contains("readField") || hooks.contains("writeField") || hooks.contains("readElement")
          || hooks.contains("writeElement") || hooks.contains("clinitEnter"), hooks.toString());
    }
  }

  /** The synthetic fields the instrumenter added to a class (names starting with $racetriage$). */
  private static List<String> addedFields(byte[] bytes) {
    List<String> fields = new java.util.ArrayList<>();
    new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public org.objectweb.asm.FieldVisitor visitField(int access, String name, String desc, String sig, Object v) {
        if (name.startsWith("$racetriage$")) {
          fields.add(name);
        }
        return null;
      }
    }, 0);
    return fields;
  }

  /**
   * A trusted JDK class that declares the shadow slot gets the releaser field too when it has a plain reference field
   * (a skip list's nodes and index nodes: their pointers are CASed and read plainly), and not when its pointers are
   * volatile (a concurrent hash map's node) or when it cannot declare the slot (a redefinition of a class defined
   * without it); an application class gets the slot alone.
   */
  @Test
  void trustedClassesWithPlainPointersGetTheReleaserFieldNextToTheSlot() throws IOException {
    String node = "java/util/concurrent/ConcurrentSkipListMap$Node";
    String index = "java/util/concurrent/ConcurrentSkipListMap$Index";
    String hashNode = "java/util/concurrent/ConcurrentHashMap$Node";
    List<String> both = List.of("$racetriage$shadow", "$racetriage$releaser");
    assertEquals(both, addedFields(instrumenter.instrument(ClassKind.TRUSTED_JDK, null, bytesOf(node)).bytes()));
    assertEquals(both, addedFields(instrumenter.instrument(ClassKind.TRUSTED_JDK, null, bytesOf(index)).bytes()));
    assertEquals(List.of("$racetriage$shadow"),
        addedFields(instrumenter.instrument(ClassKind.TRUSTED_JDK, null, bytesOf(hashNode)).bytes()));
    byte[] redefined = instrumenter.instrument(ClassKind.TRUSTED_JDK, null, bytesOf(node), false).bytes();
    assertEquals(List.of(), redefined == null ? List.of() : addedFields(redefined));
    assertEquals(List.of("$racetriage$shadow"), addedFields(instrumenter.instrument(ClassKind.APPLICATION, null,
        bytesOf("dev/racetriage/agent/instrument/fixtures/MonitorExits")).bytes()));
  }

  @Test
  void aqsKeepsItsStateEdgesButNotItsQueueBookkeeping() throws IOException {
    String aqs = "java/util/concurrent/locks/AbstractQueuedSynchronizer";
    byte[] original = bytesOf(aqs);
    int[] stateReads = new int[1];
    int[] stateWrites = new int[1];
    int[] queueFields = new int[1];
    int[] intAtomics = new int[1];
    int[] referenceAtomics = new int[1];
    new ClassReader(original).accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitFieldInsn(int opcode, String owner, String field, String d) {
            if (owner.equals(aqs) && field.equals("state")) {
              (opcode == Opcodes.GETFIELD ? stateReads : stateWrites)[0]++;
            } else if (owner.equals(aqs) && List.of("head", "tail").contains(field)
                || owner.startsWith(aqs + "$") && owner.endsWith("Node")) {
              queueFields[0]++; // the wait queue: head, tail and the nodes' own fields
            }
          }

          @Override
          public void visitMethodInsn(int opcode, String owner, String method, String d, boolean itf) {
            if (owner.equals("jdk/internal/misc/Unsafe") && method.startsWith("compareAndSet")) {
              (method.endsWith("Reference") ? referenceAtomics : intAtomics)[0]++;
            }
          }
        };
      }
    }, 0);
    List<String> hooks = hookCalls(instrumenter.instrument(ClassKind.TRUSTED_JDK, null, original).bytes());
    assertTrue(queueFields[0] > 10, "AQS reads its queue's fields: " + queueFields[0]);
    assertTrue(referenceAtomics[0] >= 2, "AQS CASes head and tail: " + referenceAtomics[0]);
    assertTrue(stateReads[0] > 0 && stateWrites[0] > 0, stateReads[0] + " " + stateWrites[0]);
    // state's volatile accesses use the synchronizer's atomic clock, as its CASes do (trusted code, see ObjectShadow)
    assertEquals(List.of(), hooks.stream().filter(h -> h.startsWith("volatile")).toList());
    assertEquals(stateWrites[0] + intAtomics[0], hooks.stream().filter("atomicBefore"::equals).count(),
        "one release per write or CAS of state, none for head, tail or the nodes");
    assertEquals(stateReads[0] + intAtomics[0], hooks.stream().filter("atomicAfter"::equals).count(),
        "one acquire per read or CAS of state");

    String owned = "java/util/concurrent/locks/AbstractOwnableSynchronizer";
    assertEquals(List.of(), hookCalls(instrumenter.instrument(ClassKind.TRUSTED_JDK, null, bytesOf(owned)).bytes()),
        "the owner thread of a lock is bookkeeping, not a pointer to follow");
  }

  @Test
  void threadForksAtStartAndJoinsWhenJoinReturns() throws IOException {
    byte[] out = instrumenter.instrument(ClassKind.THREAD, null, bytesOf("java/lang/Thread")).bytes();
    List<String> hooks = hookCalls(out);
    assertEquals(List.of("threadStarting", "joinReturned"), hooks.stream().distinct().toList());
  }

  @Test
  void compoundUpdatesAreCheckedOnceByTheirWrite() throws IOException {
    byte[] out = instrumenter.instrument(ClassKind.APPLICATION, getClass().getClassLoader(),
        bytesOf(CompoundUpdates.class.getName().replace('.', '/'))).bytes();
    List<String> hooks = hookCalls(out);
    // sums[i] += values[i] * factor: values[i] is read-checked, sums[i] only write-checked; count++: one write check
    assertEquals(1, hooks.stream().filter("readElement"::equals).count(), hooks.toString());
    assertEquals(1, hooks.stream().filter("writeElement"::equals).count(), hooks.toString());
    // count++ writes this class's own field outside a constructor: the owned-write guard, then its hook
    assertEquals(1, hooks.stream().filter("writeFieldGuarded"::equals).count(), hooks.toString());
    assertEquals(1, hooks.stream().filter("readField"::equals).count(), "only factor's read: " + hooks);
  }

  /**
   * The JDK's loading and linking code (QuietLinking): each method of {@code QuietLinking.METHODS} — the built-in
   * class loader's {@code loadClassOrNull}, the JVM's linkage upcalls in {@code MethodHandleNatives}, the registries'
   * lookups (every overload of a method named alone) — starts with
   * {@code Hooks.quietEnter}, calls {@code Hooks.quietExit} before each return and from a catch-all handler that is
   * last in its exception table (after a synchronized block's own handler), and nothing else in the class is touched.
   */
  @Test
  void loadingAndLinkingRunQuietWithTheExitInAHandlerLastInTheTable() throws IOException {
    for (var entry : QuietLinking.METHODS.entrySet()) {
      String owner = entry.getKey();
      assertEquals(ClassKind.QUIET_JDK, new ClassFilter(List.of(), List.of()).kindOf(owner));
      byte[] out = instrumenter.instrument(ClassKind.QUIET_JDK, null, bytesOf(owner)).bytes();
      assertNotNull(out, owner);
      org.objectweb.asm.tree.ClassNode node = new org.objectweb.asm.tree.ClassNode();
      new ClassReader(out).accept(node, 0);
      List<String> quiet = new ArrayList<>();
      for (org.objectweb.asm.tree.MethodNode m : node.methods) {
        List<String> hooks = new ArrayList<>();
        int returns = 0;
        for (org.objectweb.asm.tree.AbstractInsnNode insn : m.instructions) {
          if (insn instanceof org.objectweb.asm.tree.MethodInsnNode call && HookMethod.isOwner(call.owner)) {
            hooks.add(call.name);
          }
          if (insn.getOpcode() >= Opcodes.IRETURN && insn.getOpcode() <= Opcodes.RETURN) {
            returns++;
          }
        }
        String key = entry.getValue().contains(m.name + m.desc) ? m.name + m.desc
            : entry.getValue().contains(m.name) ? m.name : null; // a name alone stands for every overload
        if (key == null || (m.access & Opcodes.ACC_ABSTRACT) != 0) {
          assertEquals(List.of(), hooks, owner + "." + m.name + m.desc);
          continue;
        }
        quiet.add(key);
        assertEquals("quietEnter", hooks.get(0), hooks.toString());
        assertEquals(returns + 1, hooks.size() - 1, "an exit per return and the handler's: " + hooks);
        assertTrue(hooks.subList(1, hooks.size()).stream().allMatch("quietExit"::equals), hooks.toString());
        org.objectweb.asm.tree.TryCatchBlockNode last = m.tryCatchBlocks.get(m.tryCatchBlocks.size() - 1);
        assertNull(last.type, "a catch-all");
        org.objectweb.asm.tree.AbstractInsnNode h = last.handler;
        while (!(h instanceof org.objectweb.asm.tree.MethodInsnNode)) {
          h = h.getNext();
        }
        assertEquals("quietExit", ((org.objectweb.asm.tree.MethodInsnNode) h).name, owner + "." + m.name);
      }
      assertEquals(entry.getValue(), java.util.Set.copyOf(quiet), "every quiet method found in " + owner);
    }
  }

  @Test
  void readsAreCheckedAfterTheirLoadAndWritesBeforeTheirStore() throws IOException {
    byte[] out = instrumenter.instrument(ClassKind.APPLICATION, getClass().getClassLoader(),
        bytesOf(Reads.class.getName().replace('.', '/'))).bytes();
    List<String> order = new ArrayList<>();
    List<String> elementHooks = new ArrayList<>();
    new ClassReader(out).accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exceptions) {
        if (!name.equals("readAll")) return null;
        return new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitFieldInsn(int opcode, String owner, String field, String d) {
            order.add((opcode == Opcodes.GETFIELD || opcode == Opcodes.GETSTATIC ? "load " : "store ") + field);
          }

          @Override
          public void visitInsn(int opcode) {
            if (opcode == Opcodes.LALOAD || opcode == Opcodes.IALOAD) order.add("load element");
            if (opcode == Opcodes.IASTORE) order.add("store element");
          }

          @Override
          public void visitInvokeDynamicInsn(String indy, String d, org.objectweb.asm.Handle bootstrap,
                                             Object... arguments) {
            order.add("guard " + bootstrap.getName());
          }

          @Override
          public void visitMethodInsn(int opcode, String owner, String method, String d, boolean itf) {
            if (HookMethod.isOwner(owner)) order.add(method);
            if (method.equals("readElement") || method.equals("writeElement")) {
              elementHooks.add(d);
            }
          }
        };
      }
    }, 0);
    // an element load's hook takes the load's guard id (the owned-element guard's cache index) after its site, and
    // an element store's hook its own (the write guard's class, re-targeted on contention)
    assertEquals(List.of(HookMethod.READ_ELEMENT_GUARDED.descriptor(), HookMethod.READ_ELEMENT_GUARDED.descriptor(),
        HookMethod.WRITE_ELEMENT_GUARDED.descriptor()), elementHooks);
    // the write whose value a load returns is recorded before the load's check (see EventInstrumenter); wide, wides
    // and ints, three fields of `this` on one line, are checked together after the last of the three loads
    // (RedundantChecks); a read of a field of this class, which declares the shadow slot, has the owned-read guard
    // in front of its hook: the receiver's slot loaded by this class's own getfield, then Hooks.ownedShadow; the
    // write of its own field outside a constructor has the owned-write guard (the slot, Hooks.ownedRewrite) in front;
    // an element load has the owned-element guard (an invokedynamic site, Hooks.ownedElementSite) before its hook,
    // an element store the write guard (Hooks.ownedElementWriteSite) before its hook, both before the store
    assertEquals(List.of("load flag", "load $racetriage$shadow", "ownedShadow", "readField", "load wide",
        "load shared", "readStatic", "load wides", "arrayInField", "load element", "guard ownedElementSite",
        "readElement",
        "load ints", "load $racetriage$shadow", "ownedShadow", "readFields", "arrayInField", "load element",
        "guard ownedElementSite", "readElement",
        "load ints", "load $racetriage$shadow", "ownedShadow", "readField", "arrayInField",
        "guard ownedElementWriteSite", "writeElement", "store element",
        "load $racetriage$shadow", "ownedRewrite", "writeFieldGuarded", "store flag"), order);
  }

  /**
   * The owned-write guard ({@link GuardedWrites}): a class that declares the shadow slot guards the writes of its own
   * non-final fields in its own methods — each site its bit, a field's sites sharing one mask — but not in its
   * constructor (a fresh object), not a static field's, and not a subclass's writes (the bits are the declaring
   * class's numbering: a subclass keeps the plain hook).
   */
  @Test
  void theOwnedWriteGuardIsOnAClassesOwnFieldWritesOutsideItsConstructors() throws IOException {
    byte[] out = instrumenter.instrument(ClassKind.APPLICATION, getClass().getClassLoader(),
        bytesOf(Stepper.class.getName().replace('.', '/'))).bytes();
    Map<String, List<String>> calls = callsByMethod(out, HookMethod.OWNER);
    assertEquals(List.of("writeField", "writeField"), calls.get("<init>"), calls.toString());
    assertEquals(List.of("ownedRewrite", "writeFieldGuarded", "ownedRewrite", "writeFieldGuarded"),
        calls.get("step").stream().filter(c -> !c.startsWith("read") && !c.equals("ownedShadow")).toList(),
        calls.toString());
    assertEquals(List.of("readStatic", "writeStatic"), calls.get("count"), calls.toString());
    byte[] sub = instrumenter.instrument(ClassKind.APPLICATION, getClass().getClassLoader(),
        bytesOf(SubStepper.class.getName().replace('.', '/'))).bytes();
    Map<String, List<String>> subCalls = callsByMethod(sub, HookMethod.OWNER);
    assertEquals(true, subCalls.get("reset").contains("writeField")
        && !subCalls.get("reset").contains("ownedRewrite"), subCalls.toString());
    GuardedWrites sites = GuardedWrites.of(new org.objectweb.asm.ClassReader(bytesOf(
        Stepper.class.getName().replace('.', '/'))));
    assertEquals(3, sites.size(), "step's two sites and fresh's second site in reset");
    assertEquals(2, Long.bitCount(sites.mask("fresh")));
    assertEquals(1, Long.bitCount(sites.mask("index")));
    assertEquals(0, sites.mask("total"), "a static field");
  }

  /** An iterator's shape: a step writes two of its own fields; a constructor and a static write too. */
  static class Stepper {
    static long total;
    int index;
    boolean fresh;

    Stepper() {
      index = 0;
      fresh = true;
    }

    void step() {
      index++;
      fresh = false;
    }

    void reset() {
      fresh = true;
    }

    static void count() {
      total++;
    }
  }

  /** A subclass writing an inherited field: its own class does not declare the slot. */
  static final class SubStepper extends Stepper {
    @Override
    void reset() {
      index = -1;
    }
  }

  /** Reads of every shape the read hooks take (a wide value too), then a write. */
  /**
   * A store in a loop whose index the loop hoister cannot model (a pixel loop's {@code counters[position]++}) has the
   * repeated-write guard ({@code Hooks.repeatedElementWrite}) before its hook; the accesses after the loop have the
   * owned-element guards — though the hoisted read's exit check sits behind the method's end and jumps back to them;
   * a store whose index follows the loop's counter has no repeated-write guard (it could never skip its hook).
   */
  @Test
  void aStoreInALoopHasTheRepeatedWriteGuardBeforeItsHook() throws IOException {
    byte[] out = instrumenter.instrument(ClassKind.APPLICATION, getClass().getClassLoader(),
        bytesOf(Counting.class.getName().replace('.', '/'))).bytes();
    java.util.Map<String, List<String>> byMethod = new java.util.TreeMap<>();
    new ClassReader(out).accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exceptions) {
        if (name.startsWith("<")) return null;
        List<String> order = byMethod.computeIfAbsent(name, n -> new ArrayList<>());
        return new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitInsn(int opcode) {
            if (opcode == Opcodes.IASTORE || opcode == Opcodes.DASTORE) order.add("store element");
          }

          @Override
          public void visitInvokeDynamicInsn(String indy, String d, org.objectweb.asm.Handle bootstrap,
                                             Object... arguments) {
            order.add("guard " + bootstrap.getName());
          }

          @Override
          public void visitMethodInsn(int opcode, String owner, String method, String d, boolean itf) {
            if (HookMethod.isOwner(owner) && method.contains("Element")) order.add(method);
          }
        };
      }
    }, 0);
    assertEquals(List.of("repeatedElementWrite", "writeElement", "store element",
        "guard ownedElementSite", "readElement", "guard ownedElementWriteSite", "writeElement", "store element"),
        byMethod.get("count"));
    // a store whose index follows the loop's counter (RepeatedWrites) keeps the plain hook (the conditional read of
    // xs[j] has its hook too); one whose index is the counter's quotient repeats, and has the guard
    assertEquals(List.of("readElement", "writeElement", "store element"), byMethod.get("spread"));
    assertEquals(List.of("repeatedElementWrite", "writeElement", "store element"), byMethod.get("pack"));
  }

  static final class Counting {
    int[] count(boolean[] pixels) {
      int[] counters = new int[4];
      int position = 0;
      boolean white = false;
      for (int i = 0; i < pixels.length; i++) {
        if (pixels[i] != white) {
          counters[position]++;
        } else {
          position = (position + 1) & 3;
          white = !white;
        }
      }
      counters[0] = -counters[0];
      return counters;
    }

    void pack(boolean[] pixels, int[] bits) {
      for (int x = 0; x < pixels.length; x++) {
        if (pixels[x]) {
          bits[x / 32] |= 1 << (x & 31); // one word 32 times in a row
        }
      }
    }

    void spread(double[] forces, double[] xs, double cutoff) {
      for (int j = 0; j < xs.length; j++) {
        if (xs[j] < cutoff) {
          forces[3 * j + 1] -= xs[j]; // its index follows the loop's counter: never the same element twice
        }
      }
    }
  }

  static final class Reads {
    static int shared;
    boolean flag;
    long wide;
    long[] wides = new long[2];
    int[] ints = new int[2];

    long readAll() {
      long sum = (flag ? 1 : 0) + wide + shared + wides[1] + ints[0];
      ints[1] = 7;
      flag = sum > 0;
      return sum;
    }
  }

  /** Compiled by javac into the shapes {@link CompoundUpdateMarker} recognises. */
  static final class CompoundUpdates {
    long count;
    int factor;

    void update(int[] sums, int[] values, int i) {
      sums[i] += values[i] * factor;
      count++;
    }
  }

  /**
   * Per method of the class: the names of the methods of {@code owner} (a hooks class) it calls, in order; for
   * {@link HookMethod#OWNER}, the calls through the element hooks' forwarders too.
   */
  static Map<String, List<String>> callsByMethod(byte[] classFile, String owner) {
    Map<String, List<String>> calls = new HashMap<>();
    new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitMethodInsn(int opcode, String callee, String method, String d, boolean itf) {
            if (callee.equals(owner) || owner.equals(HookMethod.OWNER) && HookMethod.isOwner(callee)) {
              calls.computeIfAbsent(name, n -> new ArrayList<>()).add(method);
            }
          }
        };
      }
    }, 0);
    return calls;
  }

  /** The names of the Hooks methods the class calls, in order of appearance. */
  static List<String> hookCalls(byte[] classFile) {
    List<String> calls = new ArrayList<>();
    new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitMethodInsn(int opcode, String owner, String method, String d, boolean itf) {
            if (HookMethod.isOwner(owner)) {
              calls.add(method);
            }
          }
        };
      }
    }, 0);
    return calls;
  }

  private static byte[] bytesOf(String internalName) throws IOException {
    try (InputStream in = ClassLoader.getSystemResourceAsStream(internalName + ".class")) {
      return in.readAllBytes();
    }
  }

  /** A class whose one method reads an int field {@code reads} times. */
  private static byte[] hugeReader(int reads) {
    String name = "test/Huge";
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, name, null, "java/lang/Object", null);
    cw.visitField(Opcodes.ACC_PUBLIC, "one", "I", null, null).visitEnd();
    MethodVisitor sum = cw.visitMethod(Opcodes.ACC_PUBLIC, "sum", "()I", null, null);
    sum.visitCode();
    sum.visitInsn(Opcodes.ICONST_0);
    for (int i = 0; i < reads; i++) {
      sum.visitVarInsn(Opcodes.ALOAD, 0);
      sum.visitFieldInsn(Opcodes.GETFIELD, name, "one", "I");
      sum.visitInsn(Opcodes.IADD);
    }
    sum.visitInsn(Opcodes.IRETURN);
    sum.visitMaxs(0, 0);
    sum.visitEnd();
    cw.visitEnd();
    return cw.toByteArray();
  }
}
