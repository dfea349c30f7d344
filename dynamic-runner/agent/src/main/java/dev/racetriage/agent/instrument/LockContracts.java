package dev.racetriage.agent.instrument;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Read-lock contracts in the trusted {@code ReentrantReadWriteLock.ReadLock} and {@code WriteLock} and in
 * {@code StampedLock} (see
 * {@code dev.racetriage.agent.runtime.LockContracts} for the edges): a read acquire ({@code lock},
 * {@code lockInterruptibly}, {@code tryLock}) calls {@code readAcquiring()} at entry and
 * {@code readAcquired(acquired, sync)} at every exit — also through a catch-all handler that rethrows, so an
 * interrupted acquire turns the thread's hooks back on; a read {@code unlock} calls {@code readReleasing(readers)}
 * at entry and {@code readReleased()} at every exit; a write acquire calls {@code writeAcquired(acquired, readers)}
 * at each normal exit. {@code sync} is the lock view's {@code sync} field and {@code readers} the synchronizer's
 * {@code readHolds} (one per lock; private, but the views and the synchronizer are nestmates of
 * {@code ReentrantReadWriteLock}, so the view's code may read it). In {@code StampedLock} the acquires are
 * {@code readLock}, {@code tryReadLock}, {@code readLockInterruptibly} and the write ones, which return a stamp (0:
 * not acquired), the read unlocks {@code unlockRead}/{@code tryUnlockRead} ({@code unlock(stamp)} calls
 * {@code unlockRead} for a read stamp), {@code sync} is the lock itself and {@code readers} an object the runtime
 * keeps per lock. Optimistic reads and conversions keep the implementation's edges (a validated optimistic read is
 * ordered after the last write-unlock through the state it reads).
 */
final class LockContracts {
  static final String OWNER = "dev/racetriage/agent/runtime/LockContracts";
  private static final String RW = "java/util/concurrent/locks/ReentrantReadWriteLock";
  private static final String READ_LOCK = RW + "$ReadLock";
  private static final String WRITE_LOCK = RW + "$WriteLock";
  private static final String SYNC = RW + "$Sync";
  private static final String HOLDS = SYNC + "$ThreadLocalHoldCounter";
  private static final String STAMPED = "java/util/concurrent/locks/StampedLock";

  private enum Role { READ_ACQUIRE, READ_RELEASE, WRITE_ACQUIRE }

  private LockContracts() {
  }

  /** The method wrapped with its contract's calls, or {@code next} itself for any other method. */
  static MethodVisitor wrap(MethodVisitor next, String owner, String name, String descriptor) {
    Role role = role(owner, name, descriptor);
    return role == null ? next : new ContractMethod(next, owner, descriptor, role);
  }

  private static Role role(String owner, String name, String descriptor) {
    if (owner.equals(STAMPED)) {
      return switch (name) {
        case "readLock", "tryReadLock", "readLockInterruptibly" -> Role.READ_ACQUIRE;
        case "unlockRead", "tryUnlockRead" -> Role.READ_RELEASE;
        case "writeLock", "tryWriteLock", "writeLockInterruptibly" -> Role.WRITE_ACQUIRE;
        default -> null;
      };
    }
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
    /** A StampedLock: acquires return a stamp (0: failed), the synchronizer is the lock itself. */
    private final boolean stamped;
    private final Label start = new Label();
    private final Label handler = new Label();

    ContractMethod(MethodVisitor next, String owner, String descriptor, Role role) {
      super(Opcodes.ASM9, next);
      this.owner = owner;
      this.role = role;
      this.returnsBoolean = Type.getReturnType(descriptor) == Type.BOOLEAN_TYPE;
      this.stamped = owner.equals(STAMPED);
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
      if (opcode == Opcodes.IRETURN || opcode == Opcodes.RETURN || opcode == Opcodes.LRETURN) {
        // the result is `acquired`: a boolean, a stamp (0 when the try failed); a void acquire returned: acquired
        if (opcode == Opcodes.LRETURN) {
          super.visitInsn(Opcodes.DUP2);
        } else if (returnsBoolean) {
          super.visitInsn(Opcodes.DUP);
        } else {
          super.visitInsn(Opcodes.ICONST_1);
        }
        exit(opcode == Opcodes.LRETURN);
      }
      super.visitInsn(opcode);
    }

    /** With `acquired` on the stack: a boolean, or a stamp ({@code stamp}). */
    private void exit(boolean stamp) {
      String flag = stamp ? "J" : "Z";
      switch (role) {
        case READ_ACQUIRE -> {
          pushSync();
          super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "readAcquired", "(" + flag + "Ljava/lang/Object;)V",
              false);
        }
        case READ_RELEASE -> {
          super.visitInsn(stamp ? Opcodes.POP2 : Opcodes.POP);
          super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "readReleased", "()V", false);
        }
        case WRITE_ACQUIRE -> {
          pushReaders();
          super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "writeAcquired", "(" + flag + "Ljava/lang/Object;)V",
              false);
        }
      }
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
      if (role != Role.WRITE_ACQUIRE) {
        super.visitLabel(handler); // [throwable]: hooks back on, nothing acquired, rethrow
        super.visitInsn(stamped && role == Role.READ_ACQUIRE ? Opcodes.LCONST_0 : Opcodes.ICONST_0);
        exit(stamped && role == Role.READ_ACQUIRE);
        super.visitInsn(Opcodes.ATHROW);
      }
      super.visitMaxs(maxStack, maxLocals);
    }

    private void pushSync() {
      super.visitVarInsn(Opcodes.ALOAD, 0);
      if (!stamped) {
        super.visitFieldInsn(Opcodes.GETFIELD, owner, "sync", "L" + SYNC + ";");
      }
    }

    private void pushReaders() {
      pushSync();
      if (stamped) {
        super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "readersOf", "(Ljava/lang/Object;)Ljava/lang/Object;",
            false);
      } else {
        super.visitFieldInsn(Opcodes.GETFIELD, SYNC, "readHolds", "L" + HOLDS + ";");
      }
    }
  }
}
