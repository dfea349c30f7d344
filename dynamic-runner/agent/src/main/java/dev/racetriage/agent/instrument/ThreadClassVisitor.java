package dev.racetriage.agent.instrument;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.AdviceAdapter;

/**
 * java.lang.Thread: {@code start()} forks at entry (before the child can run) and {@code join(long)} — which
 * {@code join()} and {@code join(long, int)} call — joins when it returns and the thread is dead. Instrumenting the
 * bodies rather than the call sites also sees the threads that JDK code (thread pools, timers) starts and joins.
 */
final class ThreadClassVisitor extends ClassVisitor {

  ThreadClassVisitor(ClassVisitor next) {
    super(Opcodes.ASM9, next);
  }

  @Override
  public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                   String[] exceptions) {
    MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
    if (name.equals("start") && descriptor.equals("()V")) {
      return new AdviceAdapter(Opcodes.ASM9, next, access, name, descriptor) {
        @Override
        protected void onMethodEnter() {
          mv.visitVarInsn(ALOAD, 0);
          HookMethod.THREAD_STARTING.call(mv);
        }
      };
    }
    if (name.equals("join") && descriptor.equals("(J)V")) {
      return new AdviceAdapter(Opcodes.ASM9, next, access, name, descriptor) {
        @Override
        protected void onMethodExit(int opcode) {
          if (opcode != ATHROW) {
            mv.visitVarInsn(ALOAD, 0);
            HookMethod.JOIN_RETURNED.call(mv);
          }
        }
      };
    }
    return next;
  }
}
