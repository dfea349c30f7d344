package dev.racetriage.agent.instrument;

import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * Element accesses that need no check because their array never leaves the frame that allocated it (detect mode).
 * An array allocated in a method ({@code newarray}, {@code anewarray}) whose reference is only ever indexed, measured,
 * compared, kept in locals, or handed to a JDK method that reads it and keeps nothing ({@link #READS_ONLY}: {@code
 * String.format}'s varargs, {@code new String(chars)}, {@code Arrays.toString} …) is confined to one invocation of that
 * method, and so to one thread: none of its element accesses can race, and their hooks — a weak-table entry, a shadow
 * and element records per array, kept until a collection after the array died — are pure cost. A varargs array built
 * for {@code String.format} and a scratch buffer turned into a {@code String} are the common cases.
 *
 * <p>The same intraprocedural escape analysis as {@link ConfinedContainers}, over array allocations: a value is the set
 * of candidate allocations it may be, plus whether it may be anything else. A candidate <em>escapes</em> when a value
 * that may be it is stored to a field, a static or an array element, passed to any call other than those of
 * {@link #READS_ONLY} and the bulk array calls the instrumenter checks as ranges ({@link BulkArrayCalls}: {@code
 * System.arraycopy}, {@code Arrays.fill}, {@code new String(chars)} …) — an application method, a lambda that captures
 * it —, returned or thrown. The JDK's own code is not instrumented, so only the frame's own accesses are hooked at all,
 * and those are exactly the ones skipped: element accesses, and bulk calls all of whose ranges are confined arrays'
 * (a copy from a confined array into a shared one keeps its hook: the shared array's range is checked). An access is
 * skipped only when its array may be no other object than candidates that never escape.
 */
final class ConfinedArrays {
  /**
   * JDK methods (by class and name, any descriptor) that read their array arguments during the call, keep none and
   * return none: static methods, or instance methods of final classes (an application subclass overriding a method
   * of a non-final class, {@code PrintStream.printf} say, would receive the array). Application code they call back
   * ({@code toString}, {@code equals}, a comparator) receives elements, never the array.
   */
  private static final Map<String, Set<String>> READS_ONLY = Map.of(
      "java/lang/String", Set.of("<init>", "valueOf", "copyValueOf", "format", "formatted", "join"),
      "java/lang/StringBuilder", Set.of("append", "insert"),
      "java/lang/StringBuffer", Set.of("append", "insert"),
      "java/util/Arrays", Set.of("toString", "deepToString", "hashCode", "deepHashCode", "equals", "deepEquals",
          "mismatch", "compare", "binarySearch"),
      "java/util/Objects", Set.of("hash", "hashCode", "equals", "deepEquals", "toString", "isNull", "nonNull"),
      "java/util/Formatter", Set.of("format"),
      "java/text/MessageFormat", Set.of("format"),
      "java/lang/System", Set.of("identityHashCode"));

  private ConfinedArrays() {
  }

  /**
   * What needs no hook: {@code accesses}, array loads and stores whose array never leaves the frame; {@code bulkCalls},
   * bulk array calls ({@link BulkArrayCalls}) every range of which is such an array's. By identity; both empty usually.
   */
  record Confined(Set<AbstractInsnNode> accesses, Set<AbstractInsnNode> bulkCalls) {
    static final Confined NONE = new Confined(Set.of(), Set.of());

    boolean isEmpty() {
      return accesses.isEmpty() && bulkCalls.isEmpty();
    }
  }

  /** The accesses and bulk calls of {@code method} whose arrays never leave the frame. */
  static Confined find(String owner, MethodNode method) {
    Escapes interpreter = new Escapes();
    Frame<FrameEscapes.Alloc>[] frames = interpreter.analyze(owner, method);
    if (frames == null) {
      return Confined.NONE; // nothing allocated, too large, or not analysable: every access keeps its check
    }
    Set<AbstractInsnNode> calls = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Map.Entry<AbstractInsnNode, List<FrameEscapes.Alloc>> call : interpreter.bulkCalls.entrySet()) {
      if (call.getValue().stream().allMatch(interpreter::confined)) {
        calls.add(call.getKey());
      }
    }
    Set<AbstractInsnNode> confined = Collections.newSetFromMap(new IdentityHashMap<>());
    AbstractInsnNode[] insns = method.instructions.toArray();
    for (int i = 0; i < insns.length; i++) {
      int op = insns[i].getOpcode();
      Frame<FrameEscapes.Alloc> frame = frames[i];
      if (frame == null || !(isArrayLoad(op) || isArrayStore(op))) {
        continue; // null: unreachable code
      }
      int arrayDepth = isArrayLoad(op) ? 2 : 3; // a frame holds a long or a double as one value
      if (interpreter.confined(frame.getStack(frame.getStackSize() - arrayDepth))) {
        confined.add(insns[i]);
      }
    }
    return confined.isEmpty() && calls.isEmpty() ? Confined.NONE : new Confined(confined, calls);
  }

  static boolean isArrayLoad(int op) {
    return op >= Opcodes.IALOAD && op <= Opcodes.SALOAD;
  }

  static boolean isArrayStore(int op) {
    return op >= Opcodes.IASTORE && op <= Opcodes.SASTORE;
  }

  /** A call that reads its array arguments and keeps none (see {@link #READS_ONLY}). */
  static boolean readsOnly(MethodInsnNode call) {
    Set<String> names = READS_ONLY.get(call.owner);
    return names != null && names.contains(call.name);
  }

  /** The data flow of candidate arrays, recording every use that lets one escape. */
  private static final class Escapes extends FrameEscapes {
    /** Per bulk array call: the values of its ranges' arrays (merged over the frames the analysis visits it in). */
    final Map<AbstractInsnNode, List<FrameEscapes.Alloc>> bulkCalls = new IdentityHashMap<>();

    @Override
    boolean allocatesCandidate(AbstractInsnNode insn) {
      return insn.getOpcode() == Opcodes.NEWARRAY || insn.getOpcode() == Opcodes.ANEWARRAY;
    }

    @Override
    public Alloc naryOperation(AbstractInsnNode insn, List<? extends Alloc> values) throws AnalyzerException {
      int op = insn.getOpcode();
      boolean instance = op == Opcodes.INVOKEVIRTUAL || op == Opcodes.INVOKEINTERFACE || op == Opcodes.INVOKESPECIAL;
      boolean readsOnly = insn instanceof MethodInsnNode call && op != Opcodes.INVOKEDYNAMIC && readsOnly(call);
      boolean arrayReceiver = instance && insn instanceof MethodInsnNode call && call.owner.startsWith("[");
      BulkArrayCalls.Model bulk = insn instanceof MethodInsnNode call
          ? BulkArrayCalls.of(op, call.owner, call.name, call.desc) : null;
      Set<Integer> ranged = new HashSet<>();
      if (bulk != null) { // its hook reads or writes ranges of these arrays and keeps nothing
        List<FrameEscapes.Alloc> arrays = new java.util.ArrayList<>();
        // BulkArrayCalls counts a constructor's arguments from 0 (SpilledCall's positions); the frame has its receiver
        int shift = op == Opcodes.INVOKESPECIAL && ((MethodInsnNode) insn).name.equals("<init>") ? 1 : 0;
        for (BulkArrayCalls.Range r : bulk.ranges()) {
          ranged.add(r.array() + shift);
          arrays.add(values.get(r.array() + shift));
        }
        List<FrameEscapes.Alloc> seen = bulkCalls.get(insn);
        if (seen != null) {
          for (int i = 0; i < arrays.size(); i++) {
            arrays.set(i, merge(seen.get(i), arrays.get(i)));
          }
        }
        bulkCalls.put(insn, arrays);
      }
      for (int i = 0; i < values.size(); i++) {
        if (readsOnly || ranged.contains(i) || (i == 0 && arrayReceiver)) {
          continue; // a JDK call that keeps nothing; clone(), getClass() … of the array itself
        }
        escape(values.get(i)); // the callee (or a lambda capturing it) may keep it; multianewarray's lengths
      }
      return other(sizes.naryOperation(insn, Collections.nCopies(values.size(), BasicValue.REFERENCE_VALUE)));
    }
  }
}
