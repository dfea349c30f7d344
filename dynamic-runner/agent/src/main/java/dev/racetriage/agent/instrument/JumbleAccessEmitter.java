package dev.racetriage.agent.instrument;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.GeneratorAdapter;

/**
 * Jump-free code around the accesses of jumbled locations, split into what goes before and after the original
 * instruction (which {@link EventInstrumenter} emits itself, so its constructor stack tracking sees it):
 * <ul>
 * <li>read: the original load runs, then the read hook REPLACES the loaded value on the operand stack by the value
 * adversarial memory picks (a reference is cast back to the field's type);</li>
 * <li>write: the value is spilled to a local, the location's old value is loaded (it becomes the buffer's initial
 * entry if this write is the location's first hooked access), the write hook appends the new one, and the original
 * store still runs — the heap always holds the latest write.</li>
 * </ul>
 */
final class JumbleAccessEmitter {
  private final GeneratorAdapter locals;
  private final MethodVisitor mv;

  /**
   * @param locals allocates the spill locals (the instrumenter itself)
   * @param next   the visitor the inserted instructions go to, bypassing the instrumenter's own visit methods
   */
  JumbleAccessEmitter(GeneratorAdapter locals, MethodVisitor next) {
    this.locals = locals;
    this.mv = next;
  }

  /** Before GETFIELD [obj] or GETSTATIC []: leave the object (or null) under the value about to be loaded. */
  void beforeFieldRead(boolean isStatic) {
    mv.visitInsn(isStatic ? Opcodes.ACONST_NULL : Opcodes.DUP);
  }

  /** After the load: [obj|null, v] → [v']. */
  void afterFieldRead(String descriptor, int slot) {
    Type type = Type.getType(descriptor);
    pushInt(slot);
    JumbleHookMethod.forField(type, true).call(mv);
    if (type.getSort() == Type.OBJECT || type.getSort() == Type.ARRAY) {
      mv.visitTypeInsn(Opcodes.CHECKCAST, type.getSort() == Type.ARRAY ? descriptor : type.getInternalName());
    }
  }

  /** Before PUTFIELD [obj, v] or PUTSTATIC [v]: the write hook; the stack is as it was when this returns. */
  void beforeFieldWrite(boolean isStatic, String owner, String name, String descriptor, int slot) {
    Type type = Type.getType(descriptor);
    int value = locals.newLocal(type);
    locals.storeLocal(value, type);
    if (isStatic) {
      mv.visitInsn(Opcodes.ACONST_NULL);
      mv.visitFieldInsn(Opcodes.GETSTATIC, owner, name, descriptor);
    } else {
      mv.visitInsn(Opcodes.DUP);
      mv.visitInsn(Opcodes.DUP);
      mv.visitFieldInsn(Opcodes.GETFIELD, owner, name, descriptor);
    }
    locals.loadLocal(value, type);
    pushInt(slot);
    JumbleHookMethod.forField(type, false).call(mv);
    locals.loadLocal(value, type);
  }

  /** Before a primitive array load [arr, i]: keep the array and index for the hook. */
  void beforeElementRead() {
    mv.visitInsn(Opcodes.DUP2);
  }

  /** After the load: [arr, i, v] → [v']. */
  void afterElementRead(int loadOpcode) {
    JumbleHookMethod.forElement(loadOpcode).call(mv);
  }

  /** Before a primitive array store [arr, i, v]: the write hook, with the element's old value. */
  void beforeElementWrite(int storeOpcode) {
    Type type = elementType(storeOpcode);
    int value = locals.newLocal(type);
    locals.storeLocal(value, type);
    mv.visitInsn(Opcodes.DUP2);
    mv.visitInsn(Opcodes.DUP2);
    mv.visitInsn(storeOpcode - (Opcodes.IASTORE - Opcodes.IALOAD));
    locals.loadLocal(value, type);
    JumbleHookMethod.forElement(storeOpcode).call(mv);
    locals.loadLocal(value, type);
  }

  /** With an array reference on top of the stack: it is held in the jumbled array field of {@code slot}. */
  void nameArray(int slot) {
    mv.visitInsn(Opcodes.DUP);
    pushInt(slot);
    JumbleHookMethod.ARRAY_IN_FIELD.call(mv);
  }

  /** True for the primitive element loads and stores, the only element accesses jumbled. */
  static boolean isPrimitiveElementAccess(int opcode) {
    return JumbleHookMethod.forElement(opcode) != null;
  }

  private static Type elementType(int storeOpcode) {
    return switch (storeOpcode) {
      case Opcodes.LASTORE -> Type.LONG_TYPE;
      case Opcodes.FASTORE -> Type.FLOAT_TYPE;
      case Opcodes.DASTORE -> Type.DOUBLE_TYPE;
      default -> Type.INT_TYPE; // int, byte/boolean, char, short: all int on the operand stack
    };
  }

  private void pushInt(int value) {
    if (value >= -1 && value <= 5) {
      mv.visitInsn(Opcodes.ICONST_0 + value);
    } else if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
      mv.visitIntInsn(Opcodes.BIPUSH, value);
    } else {
      mv.visitLdcInsn(value);
    }
  }
}
