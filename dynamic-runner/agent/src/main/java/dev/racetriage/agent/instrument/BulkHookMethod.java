package dev.racetriage.agent.instrument;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The static methods of {@code dev.racetriage.agent.runtime.BulkHooks} that instrumented code calls at bulk array
 * operations ({@link BulkArrayCalls}), by name and descriptor, as {@link HookMethod} names {@code Hooks}'. Read
 * ranges after a call need no validation and use {@link HookMethod#READ_RANGE} directly.
 */
enum BulkHookMethod {
  /** Before a call that writes {@code [from, to)}: checked only when the call will not throw for those bounds. */
  WRITE_RANGE("writeRange", "(Ljava/lang/Object;III)V"),
  /** Before a call that writes the whole array. */
  WRITE_ALL("writeAll", "(Ljava/lang/Object;I)V"),
  /** Replaces {@code System.arraycopy}: the destination's range checked before the copy, the source's after. */
  ARRAYCOPY("arraycopy", "(Ljava/lang/Object;ILjava/lang/Object;III)V");

  static final String OWNER = "dev/racetriage/agent/runtime/BulkHooks";

  private final String methodName;
  private final String descriptor;

  BulkHookMethod(String methodName, String descriptor) {
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
}
