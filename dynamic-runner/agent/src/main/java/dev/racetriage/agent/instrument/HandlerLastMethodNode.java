package dev.racetriage.agent.instrument;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.MethodNode;

/**
 * Buffers a method and replays it into {@code target} at the end, so that a try-catch block added by the
 * instrumenter after the method's own ones (at {@code visitMaxs}) is also last in the exception table: the
 * method's handlers must keep catching first, the instrumenter's catch-all only sees what escapes the method.
 */
final class HandlerLastMethodNode extends MethodNode {
  private final MethodVisitor target;

  HandlerLastMethodNode(int access, String name, String descriptor, String signature, String[] exceptions,
                        MethodVisitor target) {
    super(Opcodes.ASM9, access, name, descriptor, signature, exceptions);
    this.target = target;
  }

  @Override
  public void visitEnd() {
    super.visitEnd();
    accept(target);
  }
}
