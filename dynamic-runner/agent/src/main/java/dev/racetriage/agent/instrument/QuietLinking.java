package dev.racetriage.agent.instrument;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AdviceAdapter;

/**
 * JDK code that the JVM runs on a thread's behalf to load or link a class runs quiet: the thread's hooks are off
 * ({@code Hooks.quietEnter}) for the whole of one of the methods in {@link #METHODS}, and back as they were when it
 * returns or throws ({@code Hooks.quietExit}, from a catch-all handler last in the exception table, so the method's
 * own handlers — a {@code synchronized} block's — still catch first).
 * <ul>
 *   <li>{@code jdk.internal.loader.BuiltinClassLoader.loadClassOrNull(String, boolean)}: the application and platform
 *       loaders' {@code loadClass}, the JVM's resolution of a class name and each loader's delegation go through it.
 *       It takes the class-loading lock from the loader's {@code ConcurrentHashMap}
 *       ({@code ClassLoader.getClassLoadingLock}) and reads its package map.</li>
 *   <li>The upcalls of {@code java.lang.invoke.MethodHandleNatives} that link an {@code invokedynamic} call site (a
 *       lambda, a string concatenation), a dynamic constant, a signature-polymorphic call, a method handle constant or
 *       a method type: the bootstraps intern method types and cache lambda forms and classes in
 *       {@code ConcurrentHashMap}s.</li>
 *   <li>The lookups of registries the JDK keeps for every thread: {@code LogManager.demandLogger} (behind
 *       {@code Logger.getLogger}), {@code ZoneRulesProvider.getRules} (behind {@code ZoneId.of}), the security
 *       providers' {@code GetInstance} (behind every {@code MessageDigest}, {@code Cipher} … {@code getInstance}),
 *       {@code MethodType.makeImpl} (method type interning) and {@code MethodHandles.Lookup}'s {@code find…} and
 *       {@code unreflect…}: their tables are trusted j.u.c or {@code Hashtable} objects that JDK code creates.</li>
 * </ul>
 * Why: those maps' compare-and-sets are trusted j.u.c code, which the agent would see as releases and acquires shared
 * by every thread that loads a class or links a call site, and the JMM makes no edge of two loads or two linkages (a
 * class's initialisation is one, and the agent sees it at its initialiser). Each edge would hide the races of any two
 * threads that load a class or run a lambda or a string concatenation for the first time between their accesses —
 * and each instrumented class resolves the hooks' own classes at its first hook, mid-run. Inside, JDK code runs, the
 * agent's transformer (quiet anyway), and a bootstrap method's own code (a language runtime's; an application's own
 * bootstrap is rare); an application's own class loader stays checked.
 */
final class QuietLinking extends ClassVisitor {
  /** The built-in loaders' common superclass. */
  static final String LOADER = "jdk/internal/loader/BuiltinClassLoader";
  /** The JVM's upcalls for linking. */
  static final String NATIVES = "java/lang/invoke/MethodHandleNatives";
  /** Per class, its quiet methods: name + descriptor. */
  static final java.util.Map<String, java.util.Set<String>> METHODS = java.util.Map.of( // name + descriptor, or a name
      LOADER, java.util.Set.of("loadClassOrNull(Ljava/lang/String;Z)Ljava/lang/Class;"),
      NATIVES, java.util.Set.of(
          "linkCallSite(Ljava/lang/Object;ILjava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;"
              + "[Ljava/lang/Object;)Ljava/lang/invoke/MemberName;",
          "linkDynamicConstant(Ljava/lang/Object;ILjava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;"
              + "Ljava/lang/Object;)Ljava/lang/Object;",
          "findMethodHandleType(Ljava/lang/Class;[Ljava/lang/Class;)Ljava/lang/invoke/MethodType;",
          "linkMethod(Ljava/lang/Class;ILjava/lang/Class;Ljava/lang/String;Ljava/lang/Object;[Ljava/lang/Object;)"
              + "Ljava/lang/invoke/MemberName;",
          "linkMethodHandleConstant(Ljava/lang/Class;ILjava/lang/Class;Ljava/lang/String;Ljava/lang/Object;)"
              + "Ljava/lang/invoke/MethodHandle;"),
      // registries the JDK keeps for every thread (a name alone: every overload): loggers, time-zone rules, security
      // providers' services, interned method types and method handle lookups
      "java/util/logging/LogManager", java.util.Set.of("demandLogger"),
      "java/time/zone/ZoneRulesProvider", java.util.Set.of("getRules"),
      "sun/security/jca/GetInstance", java.util.Set.of("getInstance", "getService", "getServices"),
      "java/lang/invoke/MethodType", java.util.Set.of("makeImpl"),
      "java/lang/invoke/MethodHandles$Lookup", java.util.Set.of("findVirtual", "findStatic", "findSpecial",
          "findConstructor", "findGetter", "findSetter", "findStaticGetter", "findStaticSetter", "findVarHandle",
          "findStaticVarHandle", "unreflect", "unreflectSpecial", "unreflectConstructor", "unreflectGetter",
          "unreflectSetter", "unreflectVarHandle", "bind"));

  private final String owner;
  private final java.util.Set<String> quiet;

  QuietLinking(ClassVisitor next, String owner) {
    super(Opcodes.ASM9, next);
    this.owner = owner;
    this.quiet = METHODS.getOrDefault(owner, java.util.Set.of());
  }

  /** True if {@code internalName} has quiet methods. */
  static boolean isQuiet(String internalName) {
    return METHODS.containsKey(internalName);
  }

  @Override
  public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                   String[] exceptions) {
    MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
    if (next == null || !(quiet.contains(name + descriptor) || quiet.contains(name))
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
