package dev.racetriage.agent.instrument;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.TypePath;
import org.objectweb.asm.AnnotationVisitor;

/**
 * Finds compound updates — {@code a[i] op= e}, {@code a[i]++}, {@code o.f op= e}, {@code o.f++} as javac compiles them
 * ({@code DUP2 xALOAD … xASTORE}, {@code DUP GETFIELD f … PUTFIELD f}) — and tells the {@link EventInstrumenter} to
 * leave out the read check of the load: the write check of the store, a few straight-line instructions later on the
 * same location with the same clock, reports the same race (as WW instead of WR). Halves the hooks of {@code x++}
 * and {@code sum[i] += v}.
 *
 * <p>Only straight-line code without synchronisation may sit between load and store: constants, local loads,
 * arithmetic (no integer division, which can throw), conversions, comparisons, non-volatile field loads and array
 * loads; the operand
 * stack is tracked (in values) so the store provably writes the location the load read. Anything else — a label, a
 * call, a jump, a store to a local — ends the candidate and the buffered instructions are forwarded unchanged, read
 * check included. The instructions are buffered only for the length of one candidate.
 */
final class CompoundUpdateMarker extends MethodVisitor {
  private enum State { NONE, AFTER_DUP2, AFTER_DUP, IN_ARRAY, IN_FIELD }

  private final EventInstrumenter instrumenter;
  private final List<Runnable> pending = new ArrayList<>();
  private State state = State.NONE;
  private int loadOpcode;
  private String fieldOwner;
  private String fieldName;
  /** Values on the operand stack above the candidate's array and index (or object). */
  private int depth;

  CompoundUpdateMarker(EventInstrumenter instrumenter) {
    super(Opcodes.ASM9, instrumenter);
    this.instrumenter = instrumenter;
  }

  // ---- the candidate's instructions ----

  @Override
  public void visitInsn(int opcode) {
    switch (state) {
      case NONE -> {
        if (opcode == Opcodes.DUP2 || opcode == Opcodes.DUP) {
          pending.add(() -> mv.visitInsn(opcode));
          state = opcode == Opcodes.DUP2 ? State.AFTER_DUP2 : State.AFTER_DUP;
          return;
        }
        super.visitInsn(opcode);
      }
      case AFTER_DUP2 -> {
        if (opcode >= Opcodes.IALOAD && opcode <= Opcodes.SALOAD) {
          int load = opcode;
          pending.add(() -> {
            instrumenter.skipNextReadCheck();
            mv.visitInsn(load);
          });
          loadOpcode = opcode;
          depth = 1;
          state = State.IN_ARRAY;
          return;
        }
        flushThen(() -> visitInsn(opcode));
      }
      case IN_ARRAY -> {
        if (opcode == loadOpcode + (Opcodes.IASTORE - Opcodes.IALOAD) && depth == 1) {
          commit();
          super.visitInsn(opcode);
          return;
        }
        straightLine(opcode);
      }
      case IN_FIELD -> straightLine(opcode);
      default -> flushThen(() -> visitInsn(opcode));
    }
  }

  private void straightLine(int opcode) {
    int delta = stackDelta(opcode);
    if (delta == Integer.MIN_VALUE || depth + delta < 1) {
      flushThen(() -> visitInsn(opcode));
      return;
    }
    depth += delta;
    pending.add(() -> mv.visitInsn(opcode));
  }

  @Override
  public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
    boolean arrayTyped = descriptor.charAt(0) == '[';
    if (state == State.AFTER_DUP && opcode == Opcodes.GETFIELD && !arrayTyped) {
      pending.add(() -> {
        instrumenter.skipNextReadCheck();
        mv.visitFieldInsn(opcode, owner, name, descriptor);
      });
      fieldOwner = owner;
      fieldName = name;
      depth = 1;
      state = State.IN_FIELD;
      return;
    }
    if (state == State.IN_FIELD && opcode == Opcodes.PUTFIELD && owner.equals(fieldOwner) && name.equals(fieldName)
        && depth == 1) {
      commit();
      super.visitFieldInsn(opcode, owner, name, descriptor);
      return;
    }
    if ((state == State.IN_ARRAY || state == State.IN_FIELD) && !arrayTyped
        && (opcode == Opcodes.GETFIELD || opcode == Opcodes.GETSTATIC)
        && !instrumenter.isVolatileField(owner, name)) { // a volatile read acquires: not straight-line
      depth += opcode == Opcodes.GETSTATIC ? 1 : 0;
      pending.add(() -> mv.visitFieldInsn(opcode, owner, name, descriptor));
      return;
    }
    flushThen(() -> super.visitFieldInsn(opcode, owner, name, descriptor));
  }

  @Override
  public void visitVarInsn(int opcode, int varIndex) {
    if ((state == State.IN_ARRAY || state == State.IN_FIELD) && opcode >= Opcodes.ILOAD && opcode <= Opcodes.ALOAD) {
      depth++;
      pending.add(() -> mv.visitVarInsn(opcode, varIndex));
      return;
    }
    flushThen(() -> super.visitVarInsn(opcode, varIndex));
  }

  @Override
  public void visitIntInsn(int opcode, int operand) {
    if ((state == State.IN_ARRAY || state == State.IN_FIELD) && opcode != Opcodes.NEWARRAY) {
      depth++;
      pending.add(() -> mv.visitIntInsn(opcode, operand));
      return;
    }
    flushThen(() -> super.visitIntInsn(opcode, operand));
  }

  @Override
  public void visitLdcInsn(Object value) {
    if ((state == State.IN_ARRAY || state == State.IN_FIELD) && !(value instanceof ConstantDynamic)) {
      depth++;
      pending.add(() -> mv.visitLdcInsn(value));
      return;
    }
    flushThen(() -> super.visitLdcInsn(value));
  }

  /** Value-count effect of a straight-line instruction, or MIN_VALUE if it may not sit in a candidate. */
  private static int stackDelta(int opcode) {
    if (opcode >= Opcodes.ACONST_NULL && opcode <= Opcodes.DCONST_1) {
      return 1;
    }
    if (opcode >= Opcodes.IALOAD && opcode <= Opcodes.SALOAD) {
      return -1; // array, index → value
    }
    if (opcode == Opcodes.IDIV || opcode == Opcodes.LDIV || opcode == Opcodes.IREM || opcode == Opcodes.LREM) {
      return Integer.MIN_VALUE; // may throw between the load and the store
    }
    if ((opcode >= Opcodes.IADD && opcode <= Opcodes.DREM) || (opcode >= Opcodes.ISHL && opcode <= Opcodes.LXOR)
        || (opcode >= Opcodes.LCMP && opcode <= Opcodes.DCMPG)) {
      return -1;
    }
    if ((opcode >= Opcodes.INEG && opcode <= Opcodes.DNEG) || (opcode >= Opcodes.I2L && opcode <= Opcodes.I2S)) {
      return 0;
    }
    return Integer.MIN_VALUE;
  }

  private void commit() {
    List<Runnable> replay = new ArrayList<>(pending);
    pending.clear();
    state = State.NONE;
    replay.forEach(Runnable::run);
  }

  /** Forwards the buffered instructions unchanged (read check included), then does {@code next}. */
  private void flushThen(Runnable next) {
    if (state != State.NONE) {
      List<Runnable> replay = new ArrayList<>(pending);
      pending.clear();
      state = State.NONE;
      for (Runnable r : replay) {
        r.run();
      }
      instrumenter.clearSkip(); // a flushed candidate's load keeps its check
    }
    next.run();
  }

  // ---- everything else ends a candidate ----

  @Override
  public void visitLabel(Label label) {
    flushThen(() -> super.visitLabel(label));
  }

  @Override
  public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
    flushThen(() -> super.visitFrame(type, numLocal, local, numStack, stack));
  }

  @Override
  public void visitLineNumber(int line, Label start) {
    flushThen(() -> super.visitLineNumber(line, start));
  }

  @Override
  public void visitJumpInsn(int opcode, Label label) {
    flushThen(() -> super.visitJumpInsn(opcode, label));
  }

  @Override
  public void visitTypeInsn(int opcode, String type) {
    flushThen(() -> super.visitTypeInsn(opcode, type));
  }

  @Override
  public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
    flushThen(() -> super.visitMethodInsn(opcode, owner, name, descriptor, isInterface));
  }

  @Override
  public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
    flushThen(() -> super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments));
  }

  @Override
  public void visitIincInsn(int varIndex, int increment) {
    flushThen(() -> super.visitIincInsn(varIndex, increment));
  }

  @Override
  public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
    flushThen(() -> super.visitTableSwitchInsn(min, max, dflt, labels));
  }

  @Override
  public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
    flushThen(() -> super.visitLookupSwitchInsn(dflt, keys, labels));
  }

  @Override
  public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
    flushThen(() -> super.visitMultiANewArrayInsn(descriptor, numDimensions));
  }

  @Override
  public AnnotationVisitor visitInsnAnnotation(int typeRef, TypePath typePath, String descriptor, boolean visible) {
    flushThen(() -> { });
    return super.visitInsnAnnotation(typeRef, typePath, descriptor, visible);
  }

  @Override
  public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
    flushThen(() -> super.visitTryCatchBlock(start, end, handler, type));
  }

  @Override
  public void visitLocalVariable(String name, String descriptor, String signature, Label start, Label end,
                                 int index) {
    flushThen(() -> super.visitLocalVariable(name, descriptor, signature, start, end, index));
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    flushThen(() -> super.visitMaxs(maxStack, maxLocals));
  }

  @Override
  public void visitEnd() {
    flushThen(super::visitEnd);
  }
}
