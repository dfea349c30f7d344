package dev.racetriage.agent.instrument;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Read-lock contracts in the trusted {@code ReentrantReadWriteLock.ReadLock} and {@code WriteLock} (see
 * {@code dev.racetriage.agent.runtime.LockContracts} for the edges): a read acquire ({@code lock},
 * {@code lockInterruptibly}, {@code tryLock}) calls {@code readAcquiring()} at entry and
 * {@code readAcquired(acquired, sync)} at every exit — also through a catch-all handler that rethrows, so an
 * interrupted acquire turns the thread's hooks back on; a read {@code unlock} calls {@code readReleasing(readers)}
 * at entry and {@code readReleased()} at every exit; a write acquire calls {@code writeAcquired(acquired, readers)}
 * at each normal exit. {@code sync} is the lock view's {@code sync} field and {@code readers} the synchronizer's
 * {@code readHolds} (one per lock; private, but the views and the synchronizer are nestmates of
 * {@code ReentrantReadWriteLock}, so the view's code may read it).
 */
final class LockContracts {
  static final String OWNER = "dev/racetriage/agent/runtime/LockContracts";
  private static final String RW = "java/util/concurrent/locks/ReentrantReadWriteLock";
  private static final String READ_LOCK = RW + "$ReadLock";
  private static final String WRITE_LOCK = RW + "$WriteLock";
  private static final String SYNC = RW + "$Sync";
  private static final String HOLDS = SYNC + "$ThreadLocalHoldCounter";

  private enum Role { READ_ACQUIRE, READ_RELEASE, WRITE_ACQUIRE }

  private LockContracts() {
  }

  /** The method wrapped with its contract's calls, or {@code next} itself for any other method. */
  static MethodVisitor wrap(MethodVisitor next, String owner, String name, String descriptor) {
    Role role = role(owner, name, descriptor);
    return role == null ? next : new ContractMethod(next, owner, descriptor, role);
  }

  private static Role role(String owner, String name, String descriptor) {
    boolean acquire = name.equals("lock") || name.equals("lockInterruptibly") || name.equals("tryLock");
    if (owner.equals(READ_LOCK)) {
      return acquire ? Role.READ_ACQUIRE : name.equals("unlock") && descriptor.equals("()V") ? Role.READ_RELEASE
          : null;
    }
    return owner.equals(WRITE_LOCK) && acquire ? Role.WRITE_ACQUIRE : null;
  }

  private static final class ContractMethod extends MethodVisitor {
    private final String owner;
    private final Role role;
    private final boolean returnsBoolean;
    private final Label start = new Label();
    private final Label handler = new Label();

    ContractMethod(MethodVisitor next, String owner, String descriptor, Role role) {
      super(Opcodes.ASM9, next);
      this.owner = owner;
      this.role = role;
      this.returnsBoolean = Type.getReturnType(descriptor) == Type.BOOLEAN_TYPE;
    }

    @Override
    public void visitCode() {
      super.visitCode();
      if (role == Role.READ_ACQUIRE) {
        super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "readAcquiring", "()V", false);
      } else if (role == Role.READ_RELEASE) {
        pushReaders();
        super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "readReleasing", "(Ljava/lang/Object;)V", false);
      }
      if (role != Role.WRITE_ACQUIRE) {
        super.visitTryCatchBlock(start, handler, handler, null);
        super.visitLabel(start);
      }
    }

    @Override
    public void visitInsn(int opcode) {
      if (opcode == Opcodes.IRETURN || opcode == Opcodes.RETURN) {
        // a boolean result is on the stack: DUP it as `acquired`; a void acquire returned normally: acquired
        if (returnsBoolean) {
          super.visitInsn(Opcodes.DUP);
        } else {
          super.visitInsn(Opcodes.ICONST_1);
        }
        exit();
      }
      super.visitInsn(opcode);
    }

    /** With `acquired` on the stack. */
    private void exit() {
      switch (role) {
        case READ_ACQUIRE -> {
          pushSync();
          super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "readAcquired", "(ZLjava/lang/Object;)V", false);
        }
        case READ_RELEASE -> {
          super.visitInsn(Opcodes.POP);
          super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "readReleased", "()V", false);
        }
        case WRITE_ACQUIRE -> {
          pushReaders();
          super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "writeAcquired", "(ZLjava/lang/Object;)V", false);
        }
      }
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
      if (role != Role.WRITE_ACQUIRE) {
        super.visitLabel(handler); // [throwable]: hooks back on, nothing acquired, rethrow
        super.visitInsn(Opcodes.ICONST_0);
        exit();
        super.visitInsn(Opcodes.ATHROW);
      }
      super.visitMaxs(maxStack, maxLocals);
    }

    private void pushSync() {
      super.visitVarInsn(Opcodes.ALOAD, 0);
      super.visitFieldInsn(Opcodes.GETFIELD, owner, "sync", "L" + SYNC + ";");
    }

    private void pushReaders() {
      pushSync();
      super.visitFieldInsn(Opcodes.GETFIELD, SYNC, "readHolds", "L" + HOLDS + ";");
    }
  }
}
