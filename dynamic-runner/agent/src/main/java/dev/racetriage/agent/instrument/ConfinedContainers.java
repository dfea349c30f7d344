package dev.racetriage.agent.instrument;

import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * Container calls that need no check because their container never leaves the frame that allocated it (detect mode,
 * container calls on; {@link ContainerModel}). A JDK container allocated in a method ({@code new StringBuilder()},
 * {@code new ArrayList<>()}) whose reference is only ever a receiver of calls, kept in locals, compared or discarded
 * is confined to one invocation of that method, and so to one thread: no call on it can race, and its hooks — a
 * weak-table entry per container, the pseudo-field naming, the h-summary — are pure cost. javac's string
 * concatenation for Java 8 targets ({@code new StringBuilder().append(a).append(b).toString()}) is the common case: one
 * such builder per concatenation, every call of it hooked until now.
 *
 * <p>An intraprocedural escape analysis over ASM's data-flow {@link Analyzer}: a value is the set of confined-candidate
 * allocations ({@code NEW} of a modelled JDK class, exactly: an application subclass may publish {@code this}) it may
 * be, plus whether it may be anything else. Copies (locals, {@code dup}, {@code checkcast}) keep the set; the result of
 * a call on a candidate is the candidate again when the call returns the receiver itself or a view of it (a fluent
 * {@code append}, {@code iterator()}, {@code keySet()}, {@code subList}: see {@link #returnsAlias}), anything else
 * otherwise. A candidate <em>escapes</em> when any value that may be it is stored to a field, a static or an array,
 * passed as an argument (to any call, a constructor or an {@code invokedynamic} — a lambda that captures it), returned
 * or thrown: the receiver position of a call, {@code ifnull}, {@code if_acmp}, {@code instanceof}, a monitor and a
 * local are the only uses that keep it confined. The JDK's own code of the container is not checked either way (it is
 * not instrumented), so only the application's call sites matter, and those are all in this frame. A call's position
 * is skipped only when its value may be no other object than candidates that never escape.
 */
final class ConfinedContainers {
  /** The result for a method with no candidate: nothing is confined. */
  static final int[] NONE = new int[0];

  /** Calls on a container whose result is a view of it (or it). */
  private static final Set<String> VIEWS = Set.of("iterator", "listIterator", "descendingIterator", "spliterator",
      "stream", "parallelStream", "keySet", "values", "entrySet", "navigableKeySet", "descendingKeySet",
      "descendingMap", "descendingSet", "subList", "headMap", "tailMap", "subMap", "headSet", "tailSet", "subSet",
      "reversed", "sequencedKeySet", "sequencedValues", "sequencedEntrySet", "asIterator");

  private ConfinedContainers() {
  }

  /**
   * For each modelled container call of {@code method} (in instruction order, counting the calls that
   * {@link #isContainerCall} accepts), a bit per spilled position ({@link SpilledCall}'s numbering) whose container is
   * confined; {@link #NONE} when nothing is (the usual case: the method allocates no modelled container).
   */
  static int[] find(String owner, MethodNode method) {
    Escapes interpreter = new Escapes();
    Frame<FrameEscapes.Alloc>[] frames = interpreter.analyze(owner, method);
    if (frames == null) {
      return NONE; // nothing allocated, too large, or not analysable: every access keeps its check
    }
    java.util.List<Integer> masks = new java.util.ArrayList<>();
    boolean any = false;
    AbstractInsnNode[] insns = method.instructions.toArray();
    for (int i = 0; i < insns.length; i++) {
      if (!(insns[i] instanceof MethodInsnNode call) || !isContainerCall(call)) {
        continue;
      }
      int mask = 0;
      Frame<FrameEscapes.Alloc> frame = frames[i];
      if (frame != null) { // null: unreachable code
        int[] accesses = accesses(call);
        int first = frame.getStackSize() - accesses.length;
        for (int p = 0; p < accesses.length; p++) {
          if (accesses[p] != ContainerModel.NONE && interpreter.confined(frame.getStack(first + p))) {
            mask |= 1 << Math.min(p, 31);
          }
        }
      }
      any |= mask != 0;
      masks.add(mask);
    }
    return any ? masks.stream().mapToInt(Integer::intValue).toArray() : NONE;
  }

  /** Whether the instrumenter checks this call as a container call (the calls {@link #find} counts). */
  static boolean isContainerCall(MethodInsnNode call) {
    return BulkArrayCalls.of(call.getOpcode(), call.owner, call.name, call.desc) == null && accesses(call) != null;
  }

  private static int[] accesses(MethodInsnNode call) {
    return ContainerModel.accesses(call.getOpcode(), call.owner, call.name, call.desc);
  }

  /** The result of {@code call} on a container is that container or a view of it. */
  static boolean returnsAlias(MethodInsnNode call) {
    Type result = Type.getReturnType(call.desc);
    if (result.getSort() != Type.OBJECT) {
      return false;
    }
    return result.getInternalName().equals(call.owner) || VIEWS.contains(call.name);
  }

  /** The data flow of candidates, recording every use that lets one escape. */
  private static final class Escapes extends FrameEscapes {
    @Override
    boolean allocatesCandidate(AbstractInsnNode insn) {
      return insn.getOpcode() == Opcodes.NEW && ContainerModel.isModelledClass(((TypeInsnNode) insn).desc);
    }

    @Override
    public Alloc naryOperation(AbstractInsnNode insn, java.util.List<? extends Alloc> values)
        throws AnalyzerException {
      int op = insn.getOpcode();
      boolean instance = op == Opcodes.INVOKEVIRTUAL || op == Opcodes.INVOKEINTERFACE || op == Opcodes.INVOKESPECIAL;
      for (int i = instance ? 1 : 0; i < values.size(); i++) {
        escape(values.get(i)); // an argument: the callee (or a lambda capturing it) may keep it
      }
      BasicValue shape = sizes.naryOperation(insn, java.util.Collections.nCopies(values.size(),
          BasicValue.REFERENCE_VALUE));
      if (instance && op != Opcodes.INVOKESPECIAL && insn instanceof MethodInsnNode call && returnsAlias(call)) {
        Alloc receiver = values.get(0);
        if (receiver.tracked()) {
          return new Alloc(1, receiver.news, receiver.other);
        }
      }
      return other(shape);
    }
  }
}
