package dev.racetriage.agent.instrument;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The field that holds an application object's shadow (read by the runtime's {@code ShadowSlots}): declared, in
 * detect mode, by every application class whose superclass is not itself an application class — the root of each
 * application hierarchy — and inherited by the rest. {@code private transient synthetic}: left out of serialized
 * forms and of the default {@code serialVersionUID} (which counts neither private transient fields), and skipped by
 * frameworks that skip synthetic members, as JaCoCo's {@code $jacocoData} is.
 *
 * <p>Trusted JDK classes (java.util.concurrent and the synchronized containers) defined after the agent started get
 * it too, in detect mode, if their superclass is {@code Object} ({@link #declaredByJdk}): their objects are what j.u.c
 * code CASes and publishes through — a {@code ConcurrentSkipListMap} node per entry — and without a slot each one's
 * clock lived in the weak identity table, one entry and {@code WeakReference} per node, which the collector clears
 * only when it collects the node's region (an old-generation node: not before a concurrent cycle). A class loaded
 * before the agent cannot gain a field (a retransformation may not change the schema), so the decision is made at
 * the class's first definition and repeated at any later retransformation from whether that definition declared it.
 *
 * <p>Deciding "the superclass will have it" from names only is safe either way: a superclass left uninstrumented
 * (too large, too new) gives neither class a slot and the runtime falls back to its table; a subclass that declares
 * one too hides the other, and the runtime always uses the most derived declaration.
 */
final class ShadowSlot {
  static final String NAME = "$racetriage$shadow";
  static final String DESCRIPTOR = "Ljava/lang/Object;";
  static final int ACCESS = Opcodes.ACC_PRIVATE | Opcodes.ACC_TRANSIENT | Opcodes.ACC_SYNTHETIC;

  private ShadowSlot() {
  }

  /**
   * True if a class with these access flags and superclass gets the slot: a class (not an interface, annotation or
   * module) that is not a record (a record's state is its components) and whose superclass is not an application
   * class that has or inherits it.
   */
  static boolean declaredBy(int access, String superName, java.util.function.Predicate<String> applicationClass) {
    if ((access & (Opcodes.ACC_INTERFACE | Opcodes.ACC_MODULE)) != 0 || superName == null) {
      return false;
    }
    if (superName.equals("java/lang/Record")) {
      return false;
    }
    return !applicationClass.test(superName);
  }

  /**
   * True if a trusted JDK class, at a definition that may declare the slot, does: a class (not an interface or
   * module) extending {@code Object} directly — the root of its hierarchy. A subclass of a JDK class inherits the
   * slot if that class was defined with it and keeps the table otherwise; no JDK class with a JDK superclass declares
   * one (that superclass may have been loaded before the agent, or be a VM-known class such as {@code Thread}).
   */
  static boolean declaredByJdk(int access, String superName) {
    return (access & (Opcodes.ACC_INTERFACE | Opcodes.ACC_MODULE)) == 0 && "java/lang/Object".equals(superName);
  }

  static void declare(ClassVisitor cv) {
    cv.visitField(ACCESS, NAME, DESCRIPTOR, null, null).visitEnd();
  }

  /**
   * The releaser field ({@code runtime.ShadowSlots#RELEASER}), declared next to the slot by a trusted JDK class that
   * declares the slot and has a plain (non-final, non-volatile) reference field: the pointers a lock-free structure
   * publishes with a compare-and-set and follows with plain loads (a skip list's {@code next}, {@code right},
   * {@code val}). It names the one thread that ever released on the object — or a marker once a second did — so a
   * pointer read by that thread is settled by a load from the object it is reading anyway, where the slot's shadow is
   * another object (a cache miss per node on a long walk). A class without such a field never takes that read and
   * gets none (a {@code ConcurrentHashMap} node's fields are volatile: four bytes more would cost eight there).
   */
  static final String RELEASER_NAME = "$racetriage$releaser";

  static void declareReleaser(ClassVisitor cv) {
    cv.visitField(ACCESS | Opcodes.ACC_VOLATILE, RELEASER_NAME, DESCRIPTOR, null, null).visitEnd();
  }

  /** True if a field with these flags and descriptor is a plain reference field (see {@link #declareReleaser}). */
  static boolean plainReference(int access, String descriptor) {
    return (access & (Opcodes.ACC_STATIC | Opcodes.ACC_FINAL | Opcodes.ACC_VOLATILE)) == 0
        && (descriptor.charAt(0) == 'L' || descriptor.charAt(0) == '[');
  }
}
