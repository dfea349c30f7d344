package dev.racetriage.agent.instrument;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The static methods of {@code dev.racetriage.agent.runtime.Hooks} that instrumented code calls, by name and
 * descriptor; the element hooks through {@code HookEntry}, whose methods forward to the {@code Hooks} method of the same
 * name and descriptor (see HookEntry on why). Named here as strings (not class literals) because the instrumented code
 * must link against the hooks from any class loader: they are found on the boot class path.
 */
public enum HookMethod {
  // access hooks take and return the method's thread-shadow local (see EventInstrumenter#callAccessHook)
  READ_FIELD("readField", "(Ljava/lang/Object;II" + Slot.TS + ")" + Slot.TS),
  // reads of two or three fields of one object on one line, checked after the last (RedundantChecks): ids, -1 for none
  READ_FIELDS("readFields", "(Ljava/lang/Object;IIII" + Slot.TS + ")" + Slot.TS),
  // the owned-read guard before READ_FIELD(S), given the receiver's slot: true if the thread made every write in it
  OWNED_SHADOW("ownedShadow", "(Ljava/lang/Object;)Z"),
  WRITE_FIELD("writeField", "(Ljava/lang/Object;II" + Slot.TS + ")" + Slot.TS),
  // the owned-write guard before a guarded site's write, given the receiver's slot, the thread slot and the site's
  // bit (GuardedWrites): the thread's shadow if the write changes nothing, else null and then WRITE_FIELD_GUARDED
  OWNED_REWRITE("ownedRewrite", "(Ljava/lang/Object;" + Slot.TS + "J)" + Slot.TS),
  WRITE_FIELD_GUARDED("writeFieldGuarded", "(Ljava/lang/Object;IIJJ" + Slot.TS + ")" + Slot.TS),
  READ_STATIC("readStatic", "(II" + Slot.TS + ")" + Slot.TS),
  WRITE_STATIC("writeStatic", "(II" + Slot.TS + ")" + Slot.TS),
  READ_ELEMENT(Slot.ENTRY, "readElement", "(Ljava/lang/Object;II" + Slot.TS + ")" + Slot.TS),
  // an element load's hook behind the owned-element guard (an invokedynamic site bound to Hooks.ownedElement, see
  // EventInstrumenter#guardedElementRead): READ_ELEMENT with the load's guard id too
  READ_ELEMENT_GUARDED(Slot.ENTRY, "readElement", "(Ljava/lang/Object;III" + Slot.TS + ")" + Slot.TS),
  WRITE_ELEMENT(Slot.ENTRY, "writeElement", "(Ljava/lang/Object;II" + Slot.TS + ")" + Slot.TS),
  // the repeated-write guard before WRITE_ELEMENT at a store in a loop (see EventInstrumenter#repeatGuardedWrite):
  // array, index, site, thread slot; true if the thread's last recorded element write was this one again
  REPEATED_ELEMENT_WRITE("repeatedElementWrite", "(Ljava/lang/Object;II" + Slot.TS + ")Z"),
  // an element store's hook behind the owned-element write guard (an invokedynamic site bound to
  // Hooks.ownedElementWrite, see EventInstrumenter#guardedElementWrite): WRITE_ELEMENT with the store's guard id too
  WRITE_ELEMENT_GUARDED(Slot.ENTRY, "writeElement", "(Ljava/lang/Object;III" + Slot.TS + ")" + Slot.TS),
  // a straight-line stretch's reads (writes) of elements [from, to) of one array, checked after the last
  // (RedundantChecks)
  READ_ELEMENTS(Slot.ENTRY, "readElements", "(Ljava/lang/Object;III" + Slot.TS + ")" + Slot.TS),
  WRITE_ELEMENTS(Slot.ENTRY, "writeElements", "(Ljava/lang/Object;III" + Slot.TS + ")" + Slot.TS),
  // a hoisted loop's elements [from, to), checked at the loop's exits (LoopCheckHoister); no thread slot
  READ_RANGE(Slot.ENTRY, "readRange", "(Ljava/lang/Object;III)V"),
  WRITE_RANGE(Slot.ENTRY, "writeRange", "(Ljava/lang/Object;III)V"),
  // every step-th element of [from, to): a loop with a stride above 1
  READ_RANGE_STRIDED(Slot.ENTRY, "readRange", "(Ljava/lang/Object;IIII)V"),
  WRITE_RANGE_STRIDED(Slot.ENTRY, "writeRange", "(Ljava/lang/Object;IIII)V"),
  ARRAY_IN_FIELD("arrayInField", "(Ljava/lang/Object;I" + Slot.TS + ")" + Slot.TS),
  MONITOR_ENTER("monitorEnter", "(Ljava/lang/Object;)V"),
  MONITOR_EXIT("monitorExit", "(Ljava/lang/Object;)V"),
  // predict=true: a synchronized block whose section the agent sees whole (TransparentSections)
  MONITOR_ENTER_TRANSPARENT("monitorEnterTransparent", "(Ljava/lang/Object;)V"),
  VOLATILE_READ("volatileRead", "(Ljava/lang/Object;I)V"),
  VOLATILE_WRITE("volatileWrite", "(Ljava/lang/Object;I)V"),
  VOLATILE_READ_STATIC("volatileReadStatic", "(I)V"),
  VOLATILE_WRITE_STATIC("volatileWriteStatic", "(I)V"),
  // trusted code's pointer read: acquires the holder's atomic clock; takes and returns the thread slot too
  TRUSTED_REFERENCE_READ("trustedReferenceRead", "(Ljava/lang/Object;" + Slot.TS + ")" + Slot.TS),
  ATOMIC_BEFORE("atomicBefore", "(Ljava/lang/Object;Ljava/lang/Object;I)V"),
  ATOMIC_AFTER("atomicAfter", "(Ljava/lang/Object;Ljava/lang/Object;I)V"),
  WAIT("waitOn", "(Ljava/lang/Object;)V"),
  WAIT_MILLIS("waitOn", "(Ljava/lang/Object;J)V"),
  WAIT_MILLIS_NANOS("waitOn", "(Ljava/lang/Object;JI)V"),
  THREAD_STARTING("threadStarting", "(Ljava/lang/Thread;)V"),
  JOIN_RETURNED("joinReturned", "(Ljava/lang/Thread;)V"),
  IS_ALIVE("isAlive", "(Ljava/lang/Thread;)Z"),
  // a class load or a linkage upcall (QuietLinking): the thread's hooks off, then back as they were
  QUIET_ENTER("quietEnter", "()Ljava/lang/Object;"),
  QUIET_EXIT("quietExit", "(Ljava/lang/Object;)V"),
  CLINIT_ENTER("clinitEnter", "()V"),
  CLINIT_EXIT("clinitExit", "()V");

  public static final String OWNER = "dev/racetriage/agent/runtime/Hooks";
  /** The element hooks' forwarders. */
  public static final String ENTRY = Slot.ENTRY;
  /** The type of the local in which an instrumented method keeps its thread's shadow. */
  public static final String THREAD_SHADOW = "dev/racetriage/agent/runtime/ThreadShadow";
  /** Mirrors {@code Hooks.SYNC_ACQUIRE} / {@code Hooks.SYNC_RELEASE}. */
  public static final int SYNC_ACQUIRE = 1;
  public static final int SYNC_RELEASE = 2;

  /** The thread-slot type in access hook descriptors (a nested class: enum constants cannot use the enum's own). */
  private static final class Slot {
    static final String TS = "L" + THREAD_SHADOW + ";";
    static final String ENTRY = "dev/racetriage/agent/runtime/HookEntry";
  }

  private final String owner;
  private final String methodName;
  private final String descriptor;

  HookMethod(String methodName, String descriptor) {
    this(OWNER, methodName, descriptor);
  }

  HookMethod(String owner, String methodName, String descriptor) {
    this.owner = owner;
    this.methodName = methodName;
    this.descriptor = descriptor;
  }

  /** True for the class of a hook call instrumented code makes ({@link #OWNER} or {@link #ENTRY}). */
  public static boolean isOwner(String internalName) {
    return OWNER.equals(internalName) || ENTRY.equals(internalName);
  }

  /** The class the instrumented call names: {@link #OWNER}, or {@link #ENTRY} for the element hooks. */
  public String owner() {
    return owner;
  }

  public String methodName() {
    return methodName;
  }

  public String descriptor() {
    return descriptor;
  }

  void call(MethodVisitor mv) {
    mv.visitMethodInsn(Opcodes.INVOKESTATIC, owner, methodName, descriptor, false);
  }

  /** The call as a tree instruction, for code built as an {@code InsnList} (the loop hoister's exit checks). */
  org.objectweb.asm.tree.MethodInsnNode insn() {
    return new org.objectweb.asm.tree.MethodInsnNode(Opcodes.INVOKESTATIC, owner, methodName, descriptor, false);
  }
}
