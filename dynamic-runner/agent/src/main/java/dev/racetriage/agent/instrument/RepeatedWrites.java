package dev.racetriage.agent.instrument;

import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SourceInterpreter;
import org.objectweb.asm.tree.analysis.SourceValue;

/**
 * The element stores in loops that get the repeated-write guard ({@code EventInstrumenter#repeatGuardedWrite}): those
 * whose index does not follow a loop's counter — a local incremented just before a backward jump (a {@code for}
 * loop's update, a {@code while} loop's last {@code x++}), read directly or through arithmetic other than a quotient
 * or a right shift ({@code bits[x / 32] |= …} writes one word 32 times in a row). A pixel loop's
 * {@code counters[counterPosition]++} gets it (the position moves only at a change of colour); a force loop's
 * {@code f[3 * j] -= …} does not: its index changes every iteration, so the guard could never skip its hook and would
 * only add its loads (the Java Grande kernels' moldyn: about 6 % more wall time with it).
 */
final class RepeatedWrites {
  /** How deep the index's arithmetic is followed ({@code 3 * j + 1} is two levels). */
  private static final int DEPTH = 4;

  private RepeatedWrites() {
  }

  /** The stores among {@code inLoops} (the method's original code) whose index follows no loop counter. */
  static Set<AbstractInsnNode> find(String owner, MethodNode method, Set<AbstractInsnNode> inLoops) {
    Set<AbstractInsnNode> stores = Collections.newSetFromMap(new IdentityHashMap<>());
    boolean any = false;
    for (AbstractInsnNode insn : inLoops) {
      any |= ConfinedArrays.isArrayStore(insn.getOpcode());
    }
    if (!any) {
      return stores;
    }
    Frame<SourceValue>[] frames;
    try {
      frames = new Analyzer<>(new SourceInterpreter()).analyze(owner, method);
    } catch (AnalyzerException | RuntimeException e) {
      return stores; // no guard: the plain hook, as before
    }
    Set<Integer> counters = counters(method);
    for (AbstractInsnNode insn : inLoops) {
      if (!ConfinedArrays.isArrayStore(insn.getOpcode())) {
        continue;
      }
      Frame<SourceValue> frame = frames[method.instructions.indexOf(insn)];
      if (frame == null || frame.getStackSize() < 3) {
        continue;
      }
      if (!followsCounter(frame.getStack(frame.getStackSize() - 2), frames, method, counters, DEPTH)) {
        stores.add(insn);
      }
    }
    return stores;
  }

  /** The locals incremented by an {@code iinc} that only loads separate from a backward jump. */
  private static Set<Integer> counters(MethodNode method) {
    Set<Integer> counters = new HashSet<>();
    for (AbstractInsnNode insn = method.instructions.getFirst(); insn != null; insn = insn.getNext()) {
      if (!(insn instanceof JumpInsnNode jump) || !isBackward(method, jump)) {
        continue;
      }
      for (AbstractInsnNode before = jump.getPrevious(); before != null; before = before.getPrevious()) {
        if (before.getOpcode() < 0) {
          continue; // a label, a line number, a frame
        }
        if (before instanceof IincInsnNode iinc) {
          counters.add(iinc.var);
          break;
        }
        if (!isOperandLoad(before.getOpcode())) {
          break;
        }
      }
    }
    return counters;
  }

  private static boolean isBackward(MethodNode method, JumpInsnNode jump) {
    return method.instructions.indexOf(jump.label) <= method.instructions.indexOf(jump);
  }

  /** The loads a loop's condition makes before its jump: {@code i < n}, {@code i < a.length}, {@code i < this.n}. */
  private static boolean isOperandLoad(int op) {
    return op == Opcodes.ILOAD || op == Opcodes.ALOAD || op == Opcodes.GETFIELD || op == Opcodes.GETSTATIC
        || op == Opcodes.ARRAYLENGTH || op == Opcodes.BIPUSH || op == Opcodes.SIPUSH
        || op >= Opcodes.ICONST_M1 && op <= Opcodes.ICONST_5 || op == Opcodes.LDC;
  }

  /** True if {@code value} is a counter's load, or arithmetic over one (followed {@code depth} levels). */
  private static boolean followsCounter(SourceValue value, Frame<SourceValue>[] frames, MethodNode method,
                                        Set<Integer> counters, int depth) {
    for (AbstractInsnNode source : value.insns) {
      if (source instanceof VarInsnNode load && source.getOpcode() == Opcodes.ILOAD) {
        if (counters.contains(load.var)) {
          return true;
        }
        continue;
      }
      int operands = arithmeticOperands(source.getOpcode());
      if (operands == 0 || depth == 0) {
        continue;
      }
      Frame<SourceValue> frame = frames[method.instructions.indexOf(source)];
      if (frame == null) {
        continue;
      }
      for (int k = 1; k <= operands && k <= frame.getStackSize(); k++) {
        if (followsCounter(frame.getStack(frame.getStackSize() - k), frames, method, counters, depth - 1)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The operand count of an int arithmetic instruction, 0 for anything else; a copy ({@code dup2} of an array and
   * index for {@code a[i] -= x}) counts as its top four: one of them is the value it copied.
   */
  private static int arithmeticOperands(int op) {
    return switch (op) {
      case Opcodes.DUP, Opcodes.DUP_X1, Opcodes.DUP_X2, Opcodes.DUP2, Opcodes.DUP2_X1, Opcodes.DUP2_X2 -> 4;
      case Opcodes.IADD, Opcodes.ISUB, Opcodes.IMUL, Opcodes.IREM, Opcodes.ISHL, Opcodes.IAND, Opcodes.IOR,
           Opcodes.IXOR -> 2;
      // a quotient or a right shift of a counter repeats: bits[x / 32] |= … writes one word 32 times in a row
      case Opcodes.IDIV, Opcodes.ISHR, Opcodes.IUSHR -> 0;
      case Opcodes.INEG, Opcodes.L2I, Opcodes.I2B, Opcodes.I2C, Opcodes.I2S -> 1;
      default -> 0;
    };
  }
}
