package dev.racetriage.agent.instrument;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

import java.util.BitSet;

/**
 * Predictive detection ({@code predict=true}): which {@code synchronized} blocks of a method are <em>transparent</em>
 * — every effect of the section on shared memory is an access the agent sees — so that WCP may let two of them that
 * do not conflict go unordered ({@code agent.predict.WcpAnalysis}). A block qualifies when javac's shape
 * {@code dup; astore n; monitorenter … aload n; monitorexit} encloses straight-line code only: loads, stores, field
 * and array accesses, constants, arithmetic, casts. A call (JDK code the agent does not check: a {@code HashMap.put}
 * conflicts inside the map), an allocation, a branch, a return, a throw or a nested monitor makes it opaque, and it
 * orders as happens-before does. Synchronized methods, constructors and class initialisers are never transparent.
 */
public final class TransparentSections {
  private static volatile boolean enabled;

  private TransparentSections() {
  }

  /** Set once at start-up from the {@code predict} option, before any class is instrumented. */
  public static void enable() {
    enabled = true;
  }

  public static boolean enabled() {
    return enabled;
  }

  /** Ordinals, among the method's {@code monitorenter} instructions, of the transparent ones. */
  public static BitSet find(MethodNode method) {
    BitSet transparent = new BitSet();
    int ordinal = 0;
    for (AbstractInsnNode insn = method.instructions.getFirst(); insn != null; insn = insn.getNext()) {
      if (insn.getOpcode() == Opcodes.MONITORENTER) {
        if (isTransparent(insn)) {
          transparent.set(ordinal);
        }
        ordinal++;
      }
    }
    return transparent;
  }

  private static boolean isTransparent(AbstractInsnNode enter) {
    AbstractInsnNode store = previous(enter);
    AbstractInsnNode dup = store == null ? null : previous(store);
    if (!(store instanceof VarInsnNode local) || store.getOpcode() != Opcodes.ASTORE || dup == null
        || dup.getOpcode() != Opcodes.DUP) {
      return false;
    }
    AbstractInsnNode last = null;
    for (AbstractInsnNode insn = enter.getNext(); insn != null; insn = insn.getNext()) {
      int op = insn.getOpcode();
      if (op < 0) {
        continue; // labels, line numbers, frames
      }
      if (op == Opcodes.MONITOREXIT) {
        return last instanceof VarInsnNode load && last.getOpcode() == Opcodes.ALOAD && load.var == local.var;
      }
      if (!straightLine(op)) {
        return false;
      }
      last = insn;
    }
    return false;
  }

  private static AbstractInsnNode previous(AbstractInsnNode insn) {
    AbstractInsnNode p = insn.getPrevious();
    while (p != null && p.getOpcode() < 0) {
      p = p.getPrevious();
    }
    return p;
  }

  /** Instructions that neither leave the block's straight line nor run code the agent does not see. */
  private static boolean straightLine(int op) {
    return op >= Opcodes.NOP && op <= Opcodes.LDC               // constants
        || op >= Opcodes.ILOAD && op <= Opcodes.SALOAD          // locals and array loads
        || op >= Opcodes.ISTORE && op <= Opcodes.SASTORE        // locals and array stores
        || op >= Opcodes.POP && op <= Opcodes.SWAP              // stack
        || op >= Opcodes.IADD && op <= Opcodes.DCMPG            // arithmetic, iinc, conversions, comparisons
        || op >= Opcodes.GETSTATIC && op <= Opcodes.PUTFIELD    // field accesses
        || op == Opcodes.ARRAYLENGTH || op == Opcodes.CHECKCAST || op == Opcodes.INSTANCEOF;
  }
}
