package dev.racetriage.agent.instrument;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Reads class files as resources of the defining loader (never loading the classes: a transformer that loads
 * classes deadlocks or recurses) to answer two questions: where a referenced field is declared and with which flags,
 * and what the common superclass of two types is (for ASM's frame computation).
 *
 * <p>Caches per class loader, weakly, so unloaded loaders are not kept alive. Not a j.u.c map: this code runs inside
 * the transformer, which may be entered while j.u.c classes are being retransformed.
 */
public final class ClassHierarchy {

  /** A field reference resolved to its declaration (JVMS §5.4.3.2). */
  public record ResolvedField(String declaringClass, int access) {
    public boolean isVolatile() {
      return (access & Opcodes.ACC_VOLATILE) != 0;
    }

    public boolean isFinal() {
      return (access & Opcodes.ACC_FINAL) != 0;
    }

    public boolean isStatic() {
      return (access & Opcodes.ACC_STATIC) != 0;
    }
  }

  private static final ClassInfo MISSING = new ClassInfo("", null, List.of(), false, Map.of(), false);
  private static final Object BOOT_KEY = new Object();

  private final Map<Object, Map<String, ClassInfo>> cache = new WeakHashMap<>();
  /**
   * The classes consulted by the current thread's instrumentation of one class ({@link #startRecording}): the
   * instrumented bytes depend on them, so the class cache checks they are unchanged before reusing the bytes.
   */
  private final ThreadLocal<Set<String>> consulted = new ThreadLocal<>();

  /** Resolves owner.name as the JVM would: declared fields, then superinterfaces, then the superclass. */
  public ResolvedField resolveField(ClassLoader loader, String owner, String name) {
    Set<String> visited = new HashSet<>();
    return resolveField(loader, owner, name, visited);
  }

  private ResolvedField resolveField(ClassLoader loader, String owner, String name, Set<String> visited) {
    if (owner == null || !visited.add(owner)) {
      return null;
    }
    ClassInfo info = info(loader, owner);
    if (info == null) {
      return null;
    }
    Integer access = info.fieldAccess().get(name);
    if (access != null) {
      return new ResolvedField(owner, access);
    }
    for (String itf : info.interfaces()) {
      ResolvedField found = resolveField(loader, itf, name, visited);
      if (found != null) {
        return found;
      }
    }
    return resolveField(loader, info.superName(), name, visited);
  }

  /** True when {@code type} is {@code ancestor} or a subclass of it (interfaces are not followed). */
  public boolean isSubclassOf(ClassLoader loader, String type, String ancestor) {
    String current = type;
    for (int depth = 0; current != null && depth < 64; depth++) {
      if (current.equals(ancestor)) {
        return true;
      }
      ClassInfo info = info(loader, current);
      current = info == null ? null : info.superName();
    }
    return false;
  }

  /** The nearest common superclass, {@code java/lang/Object} when unknown or when either is an interface. */
  public String commonSuperClass(ClassLoader loader, String type1, String type2) {
    if (type1.equals(type2)) {
      return type1;
    }
    ClassInfo info1 = info(loader, type1);
    ClassInfo info2 = info(loader, type2);
    if (info1 == null || info2 == null || info1.isInterface() || info2.isInterface()) {
      return "java/lang/Object";
    }
    List<String> ancestors = new ArrayList<>();
    for (String t = type1; t != null; ) {
      ancestors.add(t);
      ClassInfo info = info(loader, t);
      t = info == null ? null : info.superName();
    }
    for (String t = type2; t != null; ) {
      if (ancestors.contains(t)) {
        return t;
      }
      ClassInfo info = info(loader, t);
      t = info == null ? null : info.superName();
    }
    return "java/lang/Object";
  }

  /** Registers the class being transformed, whose bytes may not be readable as a resource yet. */
  public void remember(ClassLoader loader, ClassReader reader) {
    ClassInfo info = read(reader);
    synchronized (cache) {
      loaderCache(loader).put(info.name(), info);
    }
  }

  /**
   * Starts recording, on this thread, every class whose information is asked for. Transformations nest (reading a
   * class file can load, and so transform, another class on the same thread), so this returns the enclosing
   * recording, to hand back to {@link #stopRecording}.
   */
  Set<String> startRecording() {
    Set<String> enclosing = consulted.get();
    consulted.set(new HashSet<>());
    return enclosing;
  }

  /** Stops this recording, resumes the enclosing one, and returns the classes consulted since the start. */
  Set<String> stopRecording(Set<String> enclosing) {
    Set<String> names = consulted.get();
    if (enclosing != null) {
      consulted.set(enclosing);
      if (names != null) {
        enclosing.addAll(names); // what the inner class's instrumentation read, the outer one may have read too
      }
    } else {
      consulted.remove();
    }
    return names == null ? Set.of() : names;
  }

  /** Registers a class known from a cache entry (a hit never runs ASM on the class's bytes). */
  void remember(ClassLoader loader, ClassInfo info) {
    synchronized (cache) {
      loaderCache(loader).put(info.name(), info);
    }
  }

  /** The information of a class this hierarchy has (remembered or read), without reading anything; else null. */
  ClassInfo known(ClassLoader loader, String internalName) {
    synchronized (cache) {
      ClassInfo cached = loaderCache(loader).get(internalName);
      return cached == MISSING ? null : cached;
    }
  }

  ClassInfo info(ClassLoader loader, String internalName) {
    Set<String> recording = consulted.get();
    if (recording != null) {
      recording.add(internalName);
    }
    synchronized (cache) {
      ClassInfo cached = loaderCache(loader).get(internalName);
      if (cached != null) {
        return cached == MISSING ? null : cached;
      }
    }
    ClassInfo info = load(loader, internalName);
    synchronized (cache) {
      loaderCache(loader).put(internalName, info == null ? MISSING : info);
    }
    return info;
  }

  private Map<String, ClassInfo> loaderCache(ClassLoader loader) {
    Object key = loader == null ? BOOT_KEY : loader;
    Map<String, ClassInfo> perLoader = cache.get(key); // no computeIfAbsent lambda: see ClassFilter.internal
    if (perLoader == null) {
      perLoader = new HashMap<>();
      cache.put(key, perLoader);
    }
    return perLoader;
  }

  /**
   * The class file of {@code internalName} as {@code loader} finds it, or null; recorded as consulted (like
   * {@link #info}), so a cached instrumentation that read it is redone when it changes.
   */
  byte[] classFile(ClassLoader loader, String internalName) {
    Set<String> recording = consulted.get();
    if (recording != null) {
      recording.add(internalName);
    }
    return bytesOf(loader, internalName);
  }

  /** The class file's bytes as {@code loader} (null: the system loader) finds them, or null. */
  private static byte[] bytesOf(ClassLoader loader, String internalName) {
    String resource = internalName + ".class";
    try (InputStream in = loader != null ? loader.getResourceAsStream(resource)
        : ClassLoader.getSystemResourceAsStream(resource)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static ClassInfo load(ClassLoader loader, String internalName) {
    byte[] bytes = bytesOf(loader, internalName);
    try {
      return bytes == null ? null : read(new ClassReader(bytes));
    } catch (RuntimeException e) {
      return null; // an unreadable class file is treated as unknown: callers fall back to safe defaults
    }
  }

  static ClassInfo read(ClassReader reader) {
    Map<String, Integer> fields = new HashMap<>();
    String self = reader.getClassName();
    boolean[] quietInit = {true};
    reader.accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
        fields.put(name, access);
        return null;
      }

      @Override
      public org.objectweb.asm.MethodVisitor visitMethod(int access, String name, String descriptor,
                                                          String signature, String[] exceptions) {
        return name.equals("<clinit>") ? new QuietInitScan(self, quietInit) : null;
      }
    }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return new ClassInfo(self, reader.getSuperName(), List.of(reader.getInterfaces()),
        (reader.getAccess() & Opcodes.ACC_INTERFACE) != 0, fields, quietInit[0]);
  }

  /**
   * True if initialising {@code internalName} cannot synchronise or run code other than its own quiet
   * {@code <clinit>}s: its class and every superclass up to {@code java/lang/Object} have a quiet or no
   * {@code <clinit>} ({@link ClassInfo#quietInit}). A class with no readable class file is not.
   */
  public boolean quietInitialisation(ClassLoader loader, String internalName) {
    String current = internalName;
    for (int depth = 0; current != null && depth < 64; depth++) {
      if (current.equals("java/lang/Object")) {
        return true;
      }
      ClassInfo info = info(loader, current);
      if (info == null || !info.quietInit()) {
        return false;
      }
      current = info.superName();
    }
    return false;
  }

  /** Clears the flag when a {@code <clinit>} does anything but the quiet instructions of {@link ClassInfo#quietInit}. */
  private static final class QuietInitScan extends org.objectweb.asm.MethodVisitor {
    private final String self;
    private final boolean[] quiet;

    QuietInitScan(String self, boolean[] quiet) {
      super(Opcodes.ASM9);
      this.self = self;
      this.quiet = quiet;
    }

    @Override
    public void visitInsn(int opcode) {
      if (opcode == Opcodes.ATHROW || opcode == Opcodes.MONITORENTER || opcode == Opcodes.MONITOREXIT) {
        quiet[0] = false;
      }
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
      // bipush, sipush, newarray of a primitive type: quiet
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
      quiet[0] = false; // new, anewarray, checkcast, instanceof: may load or initialise another class
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
      if (!owner.equals(self)) {
        quiet[0] = false;
      }
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
      quiet[0] = false;
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String descriptor, org.objectweb.asm.Handle handle,
                                       Object... arguments) {
      quiet[0] = false;
    }

    @Override
    public void visitLdcInsn(Object value) {
      if (!(value instanceof Number) && !(value instanceof String)) {
        quiet[0] = false; // a class, method type or handle, or a dynamic constant
      }
    }

    @Override
    public void visitMultiANewArrayInsn(String descriptor, int dimensions) {
      quiet[0] = false;
    }
  }
}
