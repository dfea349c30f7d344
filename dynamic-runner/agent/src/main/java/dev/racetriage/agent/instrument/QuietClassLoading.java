package dev.racetriage.agent.instrument;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AdviceAdapter;

/**
 * The JDK's built-in class loaders load a class quiet: {@code BuiltinClassLoader.loadClassOrNull(String, boolean)} —
 * which the application and platform loaders' {@code loadClass}, the JVM's resolution of a class name, and each
 * loader's delegation to its parent all go through — runs with the thread's hooks off ({@code Hooks.quietEnter}), and
 * puts them back as they were when it returns or throws ({@code Hooks.quietExit}, from a catch-all handler last in
 * the exception table, so the method's own handlers — its {@code synchronized} block's — still catch first).
 *
 * <p>Why: loading a class takes its class-loading lock from the loader's {@code ConcurrentHashMap}
 * ({@code ClassLoader.getClassLoadingLock}) and reads the loader's package map, both trusted j.u.c code whose
 * compare-and-sets the agent would see as releases and acquires shared by every thread that loads any class through
 * that loader. The JMM makes no edge of two loads (a class's initialisation is one, and the agent sees it at its
 * initialiser), so those edges would hide races between any two threads that each load a class between their
 * accesses — as the first reference of an instrumented class to the hooks' own classes does, mid-run. Only JDK code
 * runs inside (the class path lookup, {@code defineClass} and the agent's own transformer, which runs quiet anyway);
 * a class loader of the application's own keeps its code checked.
 */
final class QuietClassLoading extends ClassVisitor {
  /** The built-in loaders' common superclass. */
  static final String LOADER = "jdk/internal/loader/BuiltinClassLoader";
  static final String METHOD = "loadClassOrNull";
  static final String DESCRIPTOR = "(Ljava/lang/String;Z)Ljava/lang/Class;";

  private final String owner;

  QuietClassLoading(ClassVisitor next, String owner) {
    super(Opcodes.ASM9, next);
    this.owner = owner;
  }

  @Override
  public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                   String[] exceptions) {
    MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
    if (next == null || !name.equals(METHOD) || !descriptor.equals(DESCRIPTOR)
        || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
      return next;
    }
    HandlerLastMethodNode buffered = new HandlerLastMethodNode(owner, access, name, descriptor, signature, exceptions,
        next);
    return new AdviceAdapter(Opcodes.ASM9, buffered, access, name, descriptor) {
      private final Label start = new Label();
      private int entered;

      @Override
      protected void onMethodEnter() {
        HookMethod.QUIET_ENTER.call(mv);
        entered = newLocal(Type.getType(Object.class));
        storeLocal(entered);
        mv.visitLabel(start);
      }

      @Override
      protected void onMethodExit(int opcode) {
        if (opcode != ATHROW) { // a throw reaches the handler below
          loadLocal(entered);
          HookMethod.QUIET_EXIT.call(mv);
        }
      }

      @Override
      public void visitMaxs(int maxStack, int maxLocals) {
        Label end = new Label();
        Label handler = new Label();
        mv.visitLabel(end);
        mv.visitTryCatchBlock(start, end, handler, null); // visited last: last in the table (HandlerLastMethodNode)
        mv.visitLabel(handler);
        loadLocal(entered);
        HookMethod.QUIET_EXIT.call(mv);
        mv.visitInsn(ATHROW);
        super.visitMaxs(maxStack, maxLocals);
      }
    };
  }
}
