package dev.racetriage.agent.instrument;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The static methods of {@code dev.racetriage.agent.runtime.JumbleHooks} that jumble-mode code calls, by name and
 * descriptor. A read hook takes the value the program just loaded and returns the one to use instead; a write hook
 * takes the location's old and new value (the old one seeds a buffer created on that write). Statics pass a null
 * object. Array element hooks take the array and index; only primitive element types are jumbled.
 */
enum JumbleHookMethod {
  READ_INT("readInt", "(Ljava/lang/Object;II)I"),
  READ_FLOAT("readFloat", "(Ljava/lang/Object;FI)F"),
  READ_LONG("readLong", "(Ljava/lang/Object;JI)J"),
  READ_DOUBLE("readDouble", "(Ljava/lang/Object;DI)D"),
  READ_REF("readRef", "(Ljava/lang/Object;Ljava/lang/Object;I)Ljava/lang/Object;"),
  WRITE_INT("writeInt", "(Ljava/lang/Object;III)V"),
  WRITE_FLOAT("writeFloat", "(Ljava/lang/Object;FFI)V"),
  WRITE_LONG("writeLong", "(Ljava/lang/Object;JJI)V"),
  WRITE_DOUBLE("writeDouble", "(Ljava/lang/Object;DDI)V"),
  WRITE_REF("writeRef", "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;I)V"),
  READ_ELEMENT_INT("readElementInt", "(Ljava/lang/Object;II)I"),
  READ_ELEMENT_FLOAT("readElementFloat", "(Ljava/lang/Object;IF)F"),
  READ_ELEMENT_LONG("readElementLong", "(Ljava/lang/Object;IJ)J"),
  READ_ELEMENT_DOUBLE("readElementDouble", "(Ljava/lang/Object;ID)D"),
  WRITE_ELEMENT_INT("writeElementInt", "(Ljava/lang/Object;III)V"),
  WRITE_ELEMENT_FLOAT("writeElementFloat", "(Ljava/lang/Object;IFF)V"),
  WRITE_ELEMENT_LONG("writeElementLong", "(Ljava/lang/Object;IJJ)V"),
  WRITE_ELEMENT_DOUBLE("writeElementDouble", "(Ljava/lang/Object;IDD)V"),
  ARRAY_IN_FIELD("arrayInField", "(Ljava/lang/Object;I)V"),
  // System.arraycopy when arrays are under trial: jumbled elements are read and written through their buffers
  ARRAYCOPY("arraycopy", "(Ljava/lang/Object;ILjava/lang/Object;II)V"),
  // after a primitive array's clone(): the original's jumbled elements as their buffers serve them
  COPIED("copied", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
  // Arrays.copyOf/copyOfRange of a primitive array: the copy, with the original's jumbled elements as served
  COPY_OF("copyOf", "(Ljava/lang/Object;I)Ljava/lang/Object;"),
  COPY_OF_RANGE("copyOfRange", "(Ljava/lang/Object;II)Ljava/lang/Object;"),
  // before and after Arrays.fill: the jumbled elements' buffers hold the values before it, then its writes
  FILLING("filling", "(Ljava/lang/Object;II)V"),
  FILLED("filled", "(Ljava/lang/Object;II)V");

  static final String OWNER = "dev/racetriage/agent/runtime/JumbleHooks";

  private final String methodName;
  private final String descriptor;

  JumbleHookMethod(String methodName, String descriptor) {
    this.methodName = methodName;
    this.descriptor = descriptor;
  }

  String methodName() {
    return methodName;
  }

  String descriptor() {
    return descriptor;
  }

  void call(MethodVisitor mv) {
    mv.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, methodName, descriptor, false);
  }

  /** The field hook for a value of this type (sort of {@link Type}). */
  static JumbleHookMethod forField(Type type, boolean read) {
    return switch (type.getSort()) {
      case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> read ? READ_INT : WRITE_INT;
      case Type.FLOAT -> read ? READ_FLOAT : WRITE_FLOAT;
      case Type.LONG -> read ? READ_LONG : WRITE_LONG;
      case Type.DOUBLE -> read ? READ_DOUBLE : WRITE_DOUBLE;
      default -> read ? READ_REF : WRITE_REF;
    };
  }

  /** The element hook for a primitive array load or store opcode, or null for a reference array (not jumbled). */
  static JumbleHookMethod forElement(int opcode) {
    return switch (opcode) {
      case Opcodes.IALOAD, Opcodes.BALOAD, Opcodes.CALOAD, Opcodes.SALOAD -> READ_ELEMENT_INT;
      case Opcodes.FALOAD -> READ_ELEMENT_FLOAT;
      case Opcodes.LALOAD -> READ_ELEMENT_LONG;
      case Opcodes.DALOAD -> READ_ELEMENT_DOUBLE;
      case Opcodes.IASTORE, Opcodes.BASTORE, Opcodes.CASTORE, Opcodes.SASTORE -> WRITE_ELEMENT_INT;
      case Opcodes.FASTORE -> WRITE_ELEMENT_FLOAT;
      case Opcodes.LASTORE -> WRITE_ELEMENT_LONG;
      case Opcodes.DASTORE -> WRITE_ELEMENT_DOUBLE;
      default -> null;
    };
  }
}
