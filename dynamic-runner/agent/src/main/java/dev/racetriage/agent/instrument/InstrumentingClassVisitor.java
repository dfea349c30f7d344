package dev.racetriage.agent.instrument;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** Routes each method with code through an {@link EventInstrumenter} (application or trusted JDK policy). */
final class InstrumentingClassVisitor extends ClassVisitor {
  private ClassContext ctx;
  private final boolean checkAccesses;

  InstrumentingClassVisitor(ClassVisitor next, ClassContext ctx, boolean checkAccesses) {
    super(Opcodes.ASM9, next);
    this.ctx = ctx;
    this.checkAccesses = checkAccesses;
  }

  @Override
  public void visitSource(String source, String debug) {
    ctx = ctx.withSourceFile(source);
    super.visitSource(source, debug);
  }

  @Override
  public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                   String[] exceptions) {
    MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
    if (next == null || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
      return next;
    }
    HandlerLastMethodNode buffered = new HandlerLastMethodNode(ctx.internalName(), access, name, descriptor, signature,
        exceptions, next);
    EventInstrumenter instrumenter = new EventInstrumenter(buffered, access, name, descriptor, ctx, checkAccesses);
    return checkAccesses ? new CompoundUpdateMarker(instrumenter) : instrumenter;
  }
}
