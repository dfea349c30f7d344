package dev.racetriage.agent.instrument;

import java.util.HashMap;
import java.util.Map;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AdviceAdapter;

/**
 * Inserts hook calls into one method. For application code ({@code checkAccesses}) that is every event the detector
 * needs: non-final field reads and writes, array element loads and stores, the array→field naming, monitors,
 * synchronized methods (also on exceptional exit), volatile accesses, atomic calls, {@code Object.wait},
 * {@code Thread.isAlive} and class initialisation. For trusted JDK code it is only the synchronisation: trusted
 * classes are never checked for races (Java RaceFinder §5.4), but their edges order the application.
 *
 * <p>Hooks for writes are inserted before the instruction, hooks for reads after it ({@code readAfterLoad}), using
 * only stack shuffles, so the instruction sees the operand stack it expected; frames are recomputed by the
 * ClassWriter. A read is checked after its load so that the write whose value it returned is always in the trace
 * before it: checked before the load, a write whose hook ran between the check and the load would place the read
 * first — an RW pair, which the h-summary does not report — although the read saw that write (a consumer's one
 * read of a flag that a producer had just raised went unreported that way). Checked after, a write landing between
 * the load and the check is reported against a read that saw the older value: still two unordered conflicting
 * accesses, a real race. The catch-all handler for exceptional exits
 * is added last to the exception table (via {@link HandlerLastMethodNode}), so the method's own handlers still catch
 * first.
 */
final class EventInstrumenter extends AdviceAdapter {
  private final ClassContext ctx;
  private final String methodName;
  private final String methodDescriptor;
  private final boolean checkAccesses;
  private final boolean synchronizedMethod;
  private final boolean staticMethod;
  private final boolean classInitializer;
  private final Map<Integer, Integer> siteByLine = new HashMap<>();
  private final HandlerLastMethodNode exceptionTable;
  private final Label bodyStart = new Label();
  private final Label handler = new Label();
  private boolean receiverReady;
  private int line = -1;
  /** Jumble mode (application code only): the emitter of jumbled accesses; null in detect mode. */
  private final JumbleAccessEmitter jumble;
  /** Detect mode, application code: the range checks around bulk array calls; null elsewhere. */
  private final BulkArrayEmitter bulkArrays;
  /** Detect mode, application code, the agent's {@code containers} option (default on): container calls are checked. */
  private final boolean containers;
  /** Set by {@link CompoundUpdateMarker} right before a load whose store follows: skip that load's read check. */
  private boolean skipReadCheck;

  /** Ordinals (among the method's array loads and stores) of the accesses a loop exit checks instead. */
  private final java.util.BitSet hoisted;
  private int arrayAccesses;
  /** Ordinals (among the method's getfield/getstatic) of the reads a loop exit checks instead. */
  private final java.util.BitSet hoistedReads;
  private int fieldReads;
  /** Per container call (ordinal among the method's modelled calls), the positions whose container is confined. */
  private final int[] confinedContainers;
  private int containerCalls;
  /** Ordinals (among the method's monitorenters) of the transparent sections (predict=true; TransparentSections). */
  private final java.util.BitSet transparentMonitors;
  private int monitorEnters;
  /** Ordinals (among the method's field instructions) of the accesses an earlier write check covers (RedundantChecks). */
  private final java.util.BitSet coveredFields;
  private int fieldAccesses;
  /** Ordinals (among the method's array loads and stores) of the accesses an earlier write check covers. */
  private final java.util.BitSet coveredElements;
  /** Ordinals (among the method's modelled bulk array calls) of those whose arrays never leave the frame. */
  private final java.util.BitSet confinedBulkCalls;
  private int bulkCalls;
  /** Per field-read ordinal, the fields one hook after it checks (RedundantChecks' read groups). */
  private final java.util.Map<Integer, int[]> combinedReads;
  /** Per element-read ordinal: the range one check after it stands for, relative to its index (RedundantChecks). */
  private final java.util.Map<Integer, int[]> elementRanges;
  /** Field-instruction ordinals of final-field reads whose value an earlier read named already (RedundantChecks). */
  private final java.util.BitSet namedAgain;

  EventInstrumenter(HandlerLastMethodNode next, int access, String name, String descriptor, ClassContext ctx,
                    boolean checkAccesses, LoopCheckHoister.Hoisted hoisted, java.util.BitSet transparentMonitors,
                    int[] confinedContainers, RedundantChecks.Covered covered, java.util.BitSet confinedBulkCalls) {
    super(Opcodes.ASM9, next, access, name, descriptor);
    this.confinedBulkCalls = confinedBulkCalls;
    this.coveredFields = covered.fields();
    this.coveredElements = covered.elements();
    this.combinedReads = covered.combined();
    this.elementRanges = covered.ranges();
    this.namedAgain = covered.named();
    this.confinedContainers = confinedContainers;
    this.transparentMonitors = transparentMonitors;
    this.hoisted = hoisted.elements();
    this.hoistedReads = hoisted.fieldReads();
    this.exceptionTable = next;
    this.ctx = ctx;
    this.methodName = name;
    this.methodDescriptor = descriptor;
    this.checkAccesses = checkAccesses;
    this.synchronizedMethod = (access & ACC_SYNCHRONIZED) != 0
        && (ctx.version() >= Opcodes.V1_5 || (access & ACC_STATIC) == 0);
    this.staticMethod = (access & ACC_STATIC) != 0;
    this.classInitializer = checkAccesses && name.equals("<clinit>");
    this.jumble = checkAccesses && ctx.jumble() != null ? new JumbleAccessEmitter(this, mv) : null;
    this.bulkArrays = checkAccesses && jumble == null ? new BulkArrayEmitter(this, mv) : null;
    this.containers = bulkArrays != null && ContainerModel.enabled();
    this.containerTrials = jumble != null && ctx.jumble().hasContainers();
  }

  /** Jumble mode with a container key under trial: container calls are bracketed (runtime.ContainerTrials). */
  private final boolean containerTrials;

  /**
   * Detect mode: a local holding the thread's shadow, null at entry and filled by the first access hook (which
   * returns it), so the hooks of one invocation share one {@code ThreadLocal} lookup — in application code and in
   * trusted JDK code, whose pointer reads ({@code Hooks.trustedReferenceRead}) are a lock-free structure's walk. Set up in
   * {@link #visitCode} — before a constructor's {@code super(...)} too, where array accesses are already hooked.
   */
  private int threadSlot = -1;

  @Override
  public void visitCode() {
    super.visitCode();
    if (jumble == null) { // trusted code too: its pointer reads pass the slot (Hooks.trustedReferenceRead)
      threadSlot = newLocal(Type.getObjectType(HookMethod.THREAD_SHADOW));
      mv.visitInsn(ACONST_NULL);
      mv.visitVarInsn(ASTORE, threadSlot);
    }
  }

  /**
   * The owned-read guard before an instance field read's hook, with the receiver on top of the stack, in a class
   * that declares the shadow slot and for a field instruction naming that class: the receiver's slot is read by a
   * plain {@code getfield} of this class's own (private) slot field — a load at an offset the JIT knows — and
   * {@code Hooks.ownedShadow}, inlined by the JIT, tells whether the calling thread made every write recorded in that
   * shadow. If it did, the receiver is dropped and the code jumps to the returned label, to be placed after the hook's
   * call; otherwise it falls through to the hook with the receiver still there. A guarded read of an object its
   * thread built calls nothing — no hook, no thread lookup. In a class whose slot a superclass declares (private
   * there, so not this class's to {@code getfield}), a read of a field the instruction names in this class (its own or
   * an inherited one) reads the slot through an {@code invokedynamic} site that the runtime links at its first run to
   * a constant load at the offset of this class's slot ({@code ShadowSlots.slotReader}) — the same load once
   * compiled. Reads of other classes' fields keep the hook alone: their objects are more often shared (a kernel's
   * particles, read by every worker), where the guard only adds work, and guarding them made the moldyn kernel 20 %
   * slower; a guard that found the slot through the runtime's per-field cache cost more than it saved
   * (docs/architecture.md, "Cost of a hook"). Class files older than Java 7 have no {@code invokedynamic}: a
   * subclass's reads keep no guard there.
   * The returned label is placed either way, after the hook and, for an array-typed field, after the hook that names
   * the array after the field ({@code Hooks.arrayInField}): a guarded read skips that too. The array in the field of an
   * object whose every recorded write is the reading thread's was stored there by that thread, and an instrumented
   * store names it; one stored otherwise (reflection, deserialisation) is named by the next reader that is not the
   * owner, or after the method of its first element write — its races are found either way, under that name.
   */
  private Label guardOwnedRead(String owner) {
    Label done = new Label();
    if (!owner.equals(ctx.internalName())) {
      return done;
    }
    boolean own = ctx.declaresSlot();
    if (!own && (!ctx.linkedSlotReads() || (ctx.version() & 0xFFFF) < V1_7)) {
      return done;
    }
    Label hook = new Label();
    mv.visitInsn(DUP);
    if (own) {
      mv.visitFieldInsn(GETFIELD, owner, ShadowSlot.NAME, ShadowSlot.DESCRIPTOR);
    } else {
      mv.visitInvokeDynamicInsn("slot", "(Ljava/lang/Object;)Ljava/lang/Object;", SLOT_READER,
          Type.getObjectType(owner));
    }
    HookMethod.OWNED_SHADOW.call(mv);
    mv.visitJumpInsn(IFEQ, hook);
    mv.visitInsn(POP);
    mv.visitJumpInsn(GOTO, done);
    mv.visitLabel(hook);
    return done;
  }

  /**
   * The owned-write guard's bit for a write of {@code owner.name} here ({@link GuardedWrites}), or 0 for none: only in
   * a class that declares the slot, for a field instruction naming that class, outside constructors, with a thread
   * slot and the linked slot reads allowed (a second pass for a method past {@link HugeMethods#LIMIT} drops both).
   */
  private long guardedWriteBit(String owner, String name) {
    if (!ctx.declaresSlot() || !ctx.linkedSlotReads() || threadSlot < 0 || !owner.equals(ctx.internalName())
        || methodName.startsWith("<")) {
      return 0;
    }
    return ctx.guardedWrites().bit(methodName, line, name);
  }

  /**
   * The owned-write guard before a guarded site's write hook, with {@code [obj, v, obj]} on the stack: the receiver's
   * slot (this class's own {@code getfield}), the thread slot and the site's bit go to {@code Hooks.ownedRewrite},
   * inlined by the JIT. If it returns the thread's shadow, the write changes nothing in the detector's state (its
   * field's record is this site's, in the writer's current epoch): the shadow fills the thread slot, the receiver copy
   * is dropped and the code jumps to the returned label, to be placed after the hook; otherwise it falls through to
   * the hook with {@code [obj, v, obj]} again.
   */
  private Label guardOwnedWrite(String owner, long bit) {
    Label done = new Label();
    mv.visitInsn(DUP);
    mv.visitFieldInsn(GETFIELD, owner, ShadowSlot.NAME, ShadowSlot.DESCRIPTOR);
    mv.visitVarInsn(ALOAD, threadSlot);
    mv.visitLdcInsn(bit);
    HookMethod.OWNED_REWRITE.call(mv);
    settledOrHook(POP, done);
    return done;
  }

  /**
   * After a guard that returned the thread's shadow (settled) or null, above the copies the hook would take: a shadow
   * fills the thread slot, the copies are dropped ({@code drop}, {@code POP} or {@code POP2}) and the code jumps to
   * {@code done}; null is dropped and the code falls through to the hook with the copies still there.
   */
  private void settledOrHook(int drop, Label done) {
    Label hook = new Label();
    mv.visitInsn(DUP);
    mv.visitJumpInsn(IFNULL, hook);
    mv.visitVarInsn(ASTORE, threadSlot);
    mv.visitInsn(drop);
    mv.visitJumpInsn(GOTO, done);
    mv.visitLabel(hook);
    mv.visitInsn(POP);
  }

  /** The bootstrap of an owned-element guard's call site, bound to {@code Hooks.ownedElement} and the guard id. */
  private static final org.objectweb.asm.Handle OWNED_ELEMENT_SITE = new org.objectweb.asm.Handle(H_INVOKESTATIC,
      HookMethod.OWNER, "ownedElementSite", "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;"
      + "Ljava/lang/invoke/MethodType;I)Ljava/lang/invoke/CallSite;", false);

  /** The bootstrap of an owned-element write guard's call site, bound to {@code Hooks.ownedElementWrite}. */
  private static final org.objectweb.asm.Handle OWNED_ELEMENT_WRITE_SITE = new org.objectweb.asm.Handle(
      H_INVOKESTATIC, HookMethod.OWNER, "ownedElementWriteSite", "(Ljava/lang/invoke/MethodHandles$Lookup;"
      + "Ljava/lang/String;Ljava/lang/invoke/MethodType;I)Ljava/lang/invoke/CallSite;", false);

  /** The bootstrap of the owned-read guard's slot read outside the class that declares the slot. */
  private static final org.objectweb.asm.Handle SLOT_READER = new org.objectweb.asm.Handle(H_INVOKESTATIC,
      "dev/racetriage/agent/runtime/ShadowSlots", "slotReader", "(Ljava/lang/invoke/MethodHandles$Lookup;"
      + "Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/Class;)Ljava/lang/invoke/CallSite;", false);

  /** An access hook with its arguments on the stack: pass the thread local and store back what it returns. */
  private void callAccessHook(HookMethod hook) {
    withThreadSlot(() -> hook.call(mv));
  }

  /**
   * Emits {@code invoke}, a hook that takes the thread slot last and returns it: the slot is passed and stored back,
   * or, where there is none, null is passed and the result dropped.
   */
  private void withThreadSlot(Runnable invoke) {
    if (threadSlot < 0) { // jumble mode names arrays at volatile array fields: no slot there
      mv.visitInsn(ACONST_NULL);
      invoke.run();
      mv.visitInsn(POP);
      return;
    }
    mv.visitVarInsn(ALOAD, threadSlot);
    invoke.run();
    mv.visitVarInsn(ASTORE, threadSlot);
  }

  /**
   * The element loads and stores (by ordinal among the method's array accesses) that get the owned-element guards
   * ({@code InstrumentingClassVisitor.accessesOutsideLoops}); null: none.
   */
  void guardedAccesses(java.util.BitSet accesses) {
    this.guardedAccesses = accesses;
  }

  private java.util.BitSet guardedAccesses;

  /**
   * Whether element access {@code ordinal} gets an owned-element guard: one of {@link #guardedAccesses}, in a method
   * with a thread slot, outside a second pass for HotSpot's size limit ({@code linkedSlotReads}), in a class file that
   * has {@code invokedynamic} (Java 7+).
   */
  private boolean guarded(int ordinal) {
    return guardedAccesses != null && guardedAccesses.get(ordinal) && threadSlot >= 0 && ctx.linkedSlotReads()
        && (ctx.version() & 0xFFFF) >= V1_7;
  }

  /**
   * The element stores in loops (by ordinal among the method's array accesses) that get the repeated-write guard
   * ({@code RepeatedWrites}: their index follows no loop counter); null: none.
   */
  void repeatGuardedStores(java.util.BitSet stores) {
    this.repeatStores = stores;
  }

  private java.util.BitSet repeatStores;

  /**
   * Whether element store {@code ordinal} gets the repeated-write guard: one of {@link #repeatStores}, in a method
   * with a thread slot, outside a second pass for HotSpot's size limit.
   */
  private boolean repeatGuarded(int ordinal) {
    return repeatStores != null && repeatStores.get(ordinal) && threadSlot >= 0 && ctx.linkedSlotReads();
  }

  /**
   * An element store's hook behind the repeated-write guard ({@code Hooks.repeatedElementWrite}, inlined by the JIT),
   * with {@code [arr, i, v, arr, i]} on the stack before the store: the guard, given the array, the index, the site
   * and the thread slot, answers true when the thread's last recorded element write was this element from this site
   * in its current epoch — {@code counters[position]++} over a run of pixels of one colour — and the hook is skipped:
   * [.., arr, i] -> [.., arr, i, arr, i] -> [.., arr, i, z] -> [..]; or -> [.., arr, i] -> the hook.
   */
  private void repeatGuardedWrite() {
    Label hook = new Label();
    Label done = new Label();
    int site = site();
    mv.visitInsn(DUP2);
    pushInt(site);
    mv.visitVarInsn(ALOAD, threadSlot);
    HookMethod.REPEATED_ELEMENT_WRITE.call(mv);
    mv.visitJumpInsn(IFEQ, hook);
    mv.visitInsn(POP2);
    mv.visitJumpInsn(GOTO, done);
    mv.visitLabel(hook);
    pushInt(site);
    callAccessHook(HookMethod.WRITE_ELEMENT);
    mv.visitLabel(done);
  }

  void skipNextReadCheck() {
    skipReadCheck = true;
  }

  /** True if owner.name resolves to a volatile field (a read of it acquires: synchronisation). */
  boolean isVolatileField(String owner, String name) {
    ClassHierarchy.ResolvedField field = ctx.hierarchy().resolveField(ctx.loader(), owner, name);
    return field != null && field.isVolatile();
  }

  void clearSkip() {
    skipReadCheck = false;
  }

  /** Whether the instruction being visited is a compound update's load; clears the mark either way. */
  private boolean takeSkip() {
    boolean skip = skipReadCheck;
    skipReadCheck = false;
    return skip;
  }

  private boolean wrapsExits() {
    return synchronizedMethod || classInitializer;
  }

  @Override
  public void visitLineNumber(int lineNumber, Label start) {
    line = lineNumber;
    super.visitLineNumber(lineNumber, start);
  }

  @Override
  protected void onMethodEnter() {
    receiverReady = true; // after super(...) in a constructor; at the start of any other method
    if (!wrapsExits()) {
      return;
    }
    if (classInitializer) {
      HookMethod.CLINIT_ENTER.call(mv);
    }
    if (synchronizedMethod) {
      pushMethodLock();
      HookMethod.MONITOR_ENTER.call(mv);
    }
    mv.visitLabel(bodyStart);
  }

  @Override
  protected void onMethodExit(int opcode) {
    if (wrapsExits() && opcode != ATHROW) {
      emitExit(); // ATHROW leaves through the catch-all handler below
    }
  }

  private void emitExit() {
    if (synchronizedMethod) {
      pushMethodLock();
      HookMethod.MONITOR_EXIT.call(mv);
    }
    if (classInitializer) {
      HookMethod.CLINIT_EXIT.call(mv);
    }
  }

  private void pushMethodLock() {
    if (staticMethod) {
      mv.visitLdcInsn(Type.getObjectType(ctx.internalName()));
    } else {
      mv.visitVarInsn(ALOAD, 0);
    }
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    if (wrapsExits()) {
      Label bodyEnd = new Label();
      mv.visitLabel(bodyEnd);
      mv.visitTryCatchBlock(bodyStart, bodyEnd, handler, null);
      mv.visitLabel(handler);
      emitExit();
      mv.visitInsn(ATHROW);
    }
    super.visitMaxs(maxStack, maxLocals);
  }

  // ---- fields ----

  @Override
  public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
    boolean skipRead = takeSkip();
    int fieldOrdinal = fieldAccesses++;
    boolean covered = coveredFields.get(fieldOrdinal); // checked already, or with a later read: RedundantChecks
    int[] group = combinedReads.get(fieldOrdinal);
    boolean hoistedRead = (opcode == GETFIELD || opcode == GETSTATIC) && hoistedReads.get(fieldReads++);
    if (hoistedRead && checkAccesses) {
      super.visitFieldInsn(opcode, owner, name, descriptor); // checked at the loop's exits (LoopCheckHoister)
      return;
    }
    if (!receiverReady) {
      super.visitFieldInsn(opcode, owner, name, descriptor); // `this` is not initialised yet: nothing to pass
      return;
    }
    if (ClassFilter.isCoverageField(name)) {
      super.visitFieldInsn(opcode, owner, name, descriptor); // a coverage tool's probes: see ClassFilter.COVERAGE_FIELDS
      return;
    }
    ClassHierarchy.ResolvedField field = ctx.hierarchy().resolveField(ctx.loader(), owner, name);
    String declaring = field != null ? field.declaringClass() : owner;
    boolean isVolatile = field != null && field.isVolatile();
    boolean isFinal = field != null && field.isFinal();
    boolean isArray = descriptor.charAt(0) == '[';
    boolean wide = descriptor.equals("J") || descriptor.equals("D");
    if (!checkAccesses && (ClassFilter.isQueueNode(declaring) || ClassFilter.isQueueBookkeeping(declaring, name))) {
      super.visitFieldInsn(opcode, owner, name, descriptor); // AQS queue bookkeeping: see ClassFilter.AQS_QUEUE_NODES
      return;
    }
    if (!checkAccesses && !isVolatile) {
      // trusted code: only volatile fields order anything — and the pointers lock-free structures follow. A final
      // field's pointer was set by the constructor, not published by a CAS on its holder: no edge to stand in for
      if (opcode == GETFIELD && isReference(descriptor) && !isFinal) {
        mv.visitInsn(DUP);
        super.visitFieldInsn(opcode, owner, name, descriptor);
        mv.visitInsn(SWAP);
        callAccessHook(HookMethod.TRUSTED_REFERENCE_READ);
      } else {
        super.visitFieldInsn(opcode, owner, name, descriptor);
      }
      return;
    }
    if (jumble != null && !isVolatile) {
      jumbleFieldInsn(opcode, owner, name, descriptor, declaring, isFinal, isArray);
      return;
    }
    // jumble mode: the arrays a volatile field under trial holds (`f[]`) are named too — the volatile orders the
    // reference, never the writes to its elements (a reviewer's `volatile int[] slots` came out unexercised)
    int volatileArraySlot = jumble != null && isArray ? ctx.jumble().arraySlot(declaring, name) : -1;
    if (volatileArraySlot >= 0 && (opcode == PUTFIELD || opcode == PUTSTATIC)) {
      jumble.nameArray(volatileArraySlot); // [.., array] -> [.., array], before the store's own hooks
    }
    int fieldId = ctx.ids().field(declaring, name);
    containerDescriptor = containers ? descriptor : null;
    switch (opcode) {
      case GETFIELD -> {
        if (isVolatile && !checkAccesses) {
          // trusted code: the object's volatile fields share its atomic clock (see ObjectShadow): [v, null, obj, mode]
          loadKeepingReceiver(owner, name, descriptor, wide);
          mv.visitInsn(ACONST_NULL);
          mv.visitInsn(SWAP);
          pushInt(HookMethod.SYNC_ACQUIRE);
          HookMethod.ATOMIC_AFTER.call(mv);
        } else if (isVolatile) {
          loadKeepingReceiver(owner, name, descriptor, wide);
          pushInt(fieldId);
          HookMethod.VOLATILE_READ.call(mv);
        } else if (!isFinal && !skipRead && group != null) {
          loadKeepingReceiver(owner, name, descriptor, wide); // one check of this read and the group's earlier ones
          Label done = guardOwnedRead(owner);
          for (int k = 0; k < 3; k++) {
            pushInt(k < group.length ? group[k] : -1); // ids (placeholders), -1 for none
          }
          pushInt(site());
          callAccessHook(HookMethod.READ_FIELDS);
          nameArrayInField(isArray, fieldId); // the guard skips it: see guardOwnedRead
          mv.visitLabel(done);
          nameContainerInField(fieldId);
        } else if (!isFinal && !skipRead && !covered) {
          loadKeepingReceiver(owner, name, descriptor, wide); // the check after the load (see readAfterLoad)
          Label done = guardOwnedRead(owner);
          pushInt(fieldId);
          pushInt(site());
          callAccessHook(HookMethod.READ_FIELD);
          nameArrayInField(isArray, fieldId);
          mv.visitLabel(done);
          nameContainerInField(fieldId);
        } else if (isFinal && namedAgain.get(fieldOrdinal)) {
          super.visitFieldInsn(opcode, owner, name, descriptor); // the same array or container, named already
        } else if (isFinal && declaring.equals(ctx.internalName())) {
          // this class's own final field: its array was named by the store of this class's constructor, which is
          // instrumented with it (one set by deserialisation or reflection stays unnamed: named after the method of
          // its first element write); a container is named here still
          super.visitFieldInsn(opcode, owner, name, descriptor);
          nameContainerInField(fieldId);
        } else {
          super.visitFieldInsn(opcode, owner, name, descriptor);
          nameArray(isArray, fieldId);
        }
      }
      case PUTFIELD -> {
        if (isVolatile && !checkAccesses) {
          copyReceiverUnderValue(wide); // trusted code: release the object's atomic clock, as for GETFIELD above
          mv.visitInsn(ACONST_NULL);
          mv.visitInsn(SWAP);
          pushInt(HookMethod.SYNC_RELEASE);
          HookMethod.ATOMIC_BEFORE.call(mv);
        } else if (isVolatile || (!isFinal && !covered)) {
          copyReceiverUnderValue(wide);
          if (isVolatile) {
            pushInt(fieldId);
            HookMethod.VOLATILE_WRITE.call(mv);
          } else {
            long bit = guardedWriteBit(owner, name);
            if (bit != 0) {
              Label done = guardOwnedWrite(owner, bit);
              pushInt(fieldId);
              pushInt(site());
              mv.visitLdcInsn(bit);
              mv.visitLdcInsn(ctx.guardedWrites().mask(name));
              callAccessHook(HookMethod.WRITE_FIELD_GUARDED);
              mv.visitLabel(done);
            } else {
              pushInt(fieldId);
              pushInt(site());
              callAccessHook(HookMethod.WRITE_FIELD);
            }
          }
        }
        if (!(isFinal && namedAgain.get(fieldOrdinal))) { // else a stable array (StableArrays): none of it checked
          nameArray(isArray, fieldId);
        }
        super.visitFieldInsn(opcode, owner, name, descriptor);
      }
      case GETSTATIC -> {
        if (isVolatile) {
          super.visitFieldInsn(opcode, owner, name, descriptor);
          pushInt(fieldId);
          HookMethod.VOLATILE_READ_STATIC.call(mv);
        } else {
          super.visitFieldInsn(opcode, owner, name, descriptor);
          if (!isFinal && !covered) { // the check after the load (see readAfterLoad)
            pushInt(fieldId);
            pushInt(site());
            callAccessHook(HookMethod.READ_STATIC);
          }
        }
        if (!(isFinal && namedAgain.get(fieldOrdinal))) { // else the same array or container, named already
          nameArray(isArray, fieldId);
        }
      }
      case PUTSTATIC -> {
        if (isVolatile) {
          pushInt(fieldId);
          HookMethod.VOLATILE_WRITE_STATIC.call(mv);
        } else if (!isFinal && !covered) {
          pushInt(fieldId);
          pushInt(site());
          callAccessHook(HookMethod.WRITE_STATIC);
        }
        if (!(isFinal && namedAgain.get(fieldOrdinal))) { // else a stable array (StableArrays)
          nameArray(isArray, fieldId);
        }
        super.visitFieldInsn(opcode, owner, name, descriptor);
      }
      default -> super.visitFieldInsn(opcode, owner, name, descriptor);
    }
    if (volatileArraySlot >= 0 && (opcode == GETFIELD || opcode == GETSTATIC)) {
      jumble.nameArray(volatileArraySlot); // the array the load left on the stack
    }
  }

  /** A GETFIELD that leaves the receiver above the value for a hook: [obj] -> [obj, obj] -> [obj, v] -> [v, obj]. */
  private void loadKeepingReceiver(String owner, String name, String descriptor, boolean wide) {
    mv.visitInsn(DUP);
    super.visitFieldInsn(GETFIELD, owner, name, descriptor);
    if (wide) {
      mv.visitInsn(DUP2_X1);
      mv.visitInsn(POP2);
    } else {
      mv.visitInsn(SWAP);
    }
  }

  /**
   * Jumble mode: only the fields under trial are hooked (no race detection runs), their reads replaced by the
   * adversarial memory's choice; an array field under trial names the arrays it holds.
   */
  private void jumbleFieldInsn(int opcode, String owner, String name, String descriptor, String declaring,
                               boolean isFinal, boolean isArray) {
    int slot = isFinal ? -1 : ctx.jumble().fieldSlot(declaring, name);
    int arraySlot = isArray ? ctx.jumble().arraySlot(declaring, name) : -1;
    boolean isStatic = opcode == GETSTATIC || opcode == PUTSTATIC;
    int containerSlot = containerTrials && ContainerModel.mayHold(descriptor)
        ? ctx.jumble().containerSlot(declaring, name) : -1;
    if (containerSlot >= 0) {
      if (opcode == GETFIELD || opcode == GETSTATIC) {
        super.visitFieldInsn(opcode, owner, name, descriptor);
        containerHeld(containerSlot);
      } else {
        containerHeld(containerSlot);
        super.visitFieldInsn(opcode, owner, name, descriptor);
      }
      return;
    }
    if (opcode == GETFIELD || opcode == GETSTATIC) {
      if (slot >= 0) {
        jumble.beforeFieldRead(isStatic);
      }
      super.visitFieldInsn(opcode, owner, name, descriptor);
      if (slot >= 0) {
        jumble.afterFieldRead(descriptor, slot);
      }
      if (arraySlot >= 0) {
        jumble.nameArray(arraySlot);
      }
    } else {
      if (slot >= 0) {
        jumble.beforeFieldWrite(isStatic, owner, name, descriptor, slot);
      }
      if (arraySlot >= 0) {
        jumble.nameArray(arraySlot);
      }
      super.visitFieldInsn(opcode, owner, name, descriptor);
    }
  }

  /** [value] → [value]: the container under trial held in this field ({@code ContainerTrials.held}). */
  private void containerHeld(int slot) {
    mv.visitInsn(DUP);
    pushInt(slot);
    mv.visitMethodInsn(INVOKESTATIC, CONTAINER_TRIALS, "held", "(Ljava/lang/Object;I)V", false);
  }

  static final String CONTAINER_TRIALS = "dev/racetriage/agent/runtime/ContainerTrials";

  private static boolean isReference(String descriptor) {
    char c = descriptor.charAt(0);
    return c == 'L' || c == '[';
  }

  /** [obj, value] → [obj, value, obj], for a value of one or two slots. */
  private void copyReceiverUnderValue(boolean wide) {
    if (wide) {
      mv.visitInsn(DUP2_X1); // [v, obj, v]
      mv.visitInsn(POP2);    // [v, obj]
      mv.visitInsn(DUP_X2);  // [obj, v, obj]
    } else {
      mv.visitInsn(DUP2);    // [obj, v, obj, v]
      mv.visitInsn(POP);     // [obj, v, obj]
    }
  }

  /**
   * With an array reference on top of the stack: name the array after the field (application code only); with a
   * container-typed value, name the container after it (detect mode, with container calls on: see ContainerModel).
   */
  private void nameArray(boolean isArray, int fieldId) {
    nameArrayInField(isArray, fieldId);
    nameContainerInField(fieldId);
  }

  /** The array half of {@link #nameArray}. */
  private void nameArrayInField(boolean isArray, int fieldId) {
    if (isArray && checkAccesses) {
      mv.visitInsn(DUP);
      pushInt(fieldId);
      callAccessHook(HookMethod.ARRAY_IN_FIELD);
    }
  }

  /** The container half of {@link #nameArray}. */
  private void nameContainerInField(int fieldId) {
    if (containerDescriptor != null && ContainerModel.mayHold(containerDescriptor)) {
      mv.visitInsn(DUP);
      pushInt(fieldId);
      callContainerHook("inField", "(Ljava/lang/Object;I" + THREAD_SLOT_TYPE + ")" + THREAD_SLOT_TYPE);
    }
  }

  static final String CONTAINER_HOOKS = "dev/racetriage/agent/runtime/ContainerHooks";
  private static final String THREAD_SLOT_TYPE = "L" + HookMethod.THREAD_SHADOW + ";";
  static final String UNSAFE_HOOKS = "dev/racetriage/agent/runtime/UnsafeHooks";
  /** The descriptor of the field instruction being instrumented, when container calls are modelled here. */
  private String containerDescriptor;

  // ---- arrays, monitors ----

  @Override
  public void visitInsn(int opcode) {
    boolean skipRead = takeSkip();
    if (isArrayLoad(opcode) || isArrayStore(opcode)) {
      int ordinal = arrayAccesses++;
      if (hoisted.get(ordinal) || coveredElements.get(ordinal)) {
        // checked with its loop's range at the loop's exits (LoopCheckHoister), or already (RedundantChecks)
        super.visitInsn(opcode);
        return;
      }
      int[] range = checkAccesses && jumble == null ? elementRanges.get(ordinal) : null;
      if (range != null && isArrayLoad(opcode)) {
        readElementsAfterLoad(opcode, range);
        return;
      }
      if (range != null) {
        writeElementsAfterStore(opcode, range);
        return;
      }
    }
    if (jumble != null && (isArrayLoad(opcode) || isArrayStore(opcode))) {
      jumbleArrayInsn(opcode);
      return;
    }
    if (checkAccesses && isArrayLoad(opcode)) {
      if (!skipRead) {
        loadKeepingArrayAndIndex(opcode); // the check after the load (see readAfterLoad)
        if (guarded(arrayAccesses - 1)) { // the owned-element guard
          guardedElementRead(arrayAccesses - 1);
          return;
        }
        pushInt(site());
        callAccessHook(HookMethod.READ_ELEMENT);
        return;
      }
    } else if (checkAccesses && isArrayStore(opcode)) {
      if (opcode == LASTORE || opcode == DASTORE) {
        mv.visitInsn(DUP2_X2); // [v, arr, i, v]
        mv.visitInsn(POP2);    // [v, arr, i]
        mv.visitInsn(DUP2_X2); // [arr, i, v, arr, i]
      } else {
        mv.visitInsn(DUP_X2);  // [v, arr, i, v]
        mv.visitInsn(POP);     // [v, arr, i]
        mv.visitInsn(DUP2_X1); // [arr, i, v, arr, i]
      }
      if (guarded(arrayAccesses - 1)) { // the owned-element write guard
        guardedElementWrite(arrayAccesses - 1);
      } else if (repeatGuarded(arrayAccesses - 1)) { // a store in a loop: the repeated-write guard
        repeatGuardedWrite();
      } else {
        pushInt(site());
        callAccessHook(HookMethod.WRITE_ELEMENT);
      }
    } else if (!checkAccesses && opcode == AALOAD) {
      // trusted code: a pointer read out of an object array acquires the array's atomic clock (see the hook)
      mv.visitInsn(DUP2);           // [arr, i, arr, i]
      mv.visitInsn(POP);            // [arr, i, arr]
      mv.visitInsn(DUP_X2);         // [arr, arr, i, arr]
      mv.visitInsn(POP);            // [arr, arr, i]
      super.visitInsn(opcode);      // [arr, value]
      mv.visitInsn(SWAP);           // [value, arr]
      callAccessHook(HookMethod.TRUSTED_REFERENCE_READ);
      return;
    } else if (opcode == MONITORENTER) {
      mv.visitInsn(DUP);
      super.visitInsn(opcode);
      guardedCall(transparentMonitors.get(monitorEnters++) ? HookMethod.MONITOR_ENTER_TRANSPARENT
          : HookMethod.MONITOR_ENTER);
      return;
    } else if (opcode == MONITOREXIT) {
      int monitor = newLocal(Type.getType(Object.class));
      mv.visitInsn(DUP);
      mv.visitVarInsn(ASTORE, monitor);
      guardedCall(HookMethod.MONITOR_EXIT);
      mv.visitVarInsn(ALOAD, monitor);
    }
    super.visitInsn(opcode);
  }

  /**
   * An element read's check behind the owned-element guard, with {@code [v, arr, i]} on the stack after the load: the
   * guard is an {@code invokedynamic} site given the array and this load's guard id — a number of its own, bound when
   * the class is defined ({@link IdSymbol#guard}), under which the runtime caches the last array the load found owned
   * by its reader — whose bootstrap ({@code Hooks.ownedElementSite}) links it to {@code Hooks.ownedElement}, and which
   * the runtime re-targets to a constant false once its class's loads prove to read shared arrays. If the calling thread
   * owns the array the check is skipped: [v, arr, i] -> [v, arr, i, arr, id] -> [v, arr, i, owned] -> [v]; otherwise the
   * hook takes the id too, to fill the cache. Class files older than Java 7 have no {@code invokedynamic}: their loads
   * keep the hook alone.
   */
  private void guardedElementRead(int ordinal) {
    int guard = ctx.ids().guard(ctx.binaryName(), methodName + methodDescriptor, ordinal);
    Label hook = new Label();
    Label done = new Label();
    mv.visitInsn(SWAP);    // [v, i, arr]
    mv.visitInsn(DUP_X1);  // [v, arr, i, arr]
    pushInt(guard);
    mv.visitInvokeDynamicInsn("owned", "(Ljava/lang/Object;I)Z", OWNED_ELEMENT_SITE, guard);
    mv.visitJumpInsn(IFEQ, hook);
    mv.visitInsn(POP2);
    mv.visitJumpInsn(GOTO, done);
    mv.visitLabel(hook);
    pushInt(site());
    pushInt(guard);
    callAccessHook(HookMethod.READ_ELEMENT_GUARDED);
    mv.visitLabel(done);
  }

  /**
   * An element store's hook behind the owned-element write guard, with {@code [arr, i, v, arr, i]} on the stack before
   * the store: the guard is an {@code invokedynamic} site ({@code Hooks.ownedElementWriteSite}) linked to
   * {@code Hooks.ownedElementWrite}, given the array, the index, the site and the thread slot, which records an
   * owner's write itself and returns the thread's shadow (stored into the slot); null calls the hook, which takes the
   * store's guard id too, to re-target its class's sites once they prove to write shared arrays:
   * [.., arr, i] -> [.., arr, i, arr, i] -> [.., arr, i, t] -> [..]; or -> [.., arr, i] -> the hook.
   */
  private void guardedElementWrite(int ordinal) {
    int guard = ctx.ids().guard(ctx.binaryName(), methodName + methodDescriptor, ordinal);
    Label done = new Label();
    int site = site();
    mv.visitInsn(DUP2);
    pushInt(site);
    mv.visitVarInsn(ALOAD, threadSlot);
    mv.visitInvokeDynamicInsn("ownedWrite", "(Ljava/lang/Object;II" + THREAD_SLOT_TYPE + ")" + THREAD_SLOT_TYPE,
        OWNED_ELEMENT_WRITE_SITE, guard);
    settledOrHook(POP2, done);
    pushInt(site);
    pushInt(guard);
    callAccessHook(HookMethod.WRITE_ELEMENT_GUARDED);
    mv.visitLabel(done);
  }

  /**
   * The last of a group of element reads (RedundantChecks): the load, then one check of the group's range, {@code
   * range = {from, to, line}} relative to this read's index, reported at the group's first line:
   * [arr, i] -> [arr, i, arr, i] -> [arr, i, v] -> [v, arr, i] -> the check.
   */
  private void readElementsAfterLoad(int opcode, int[] range) {
    loadKeepingArrayAndIndex(opcode);
    checkRange(range, HookMethod.READ_ELEMENTS);
  }

  /** An element load that leaves the array and index above the value: [arr, i] -> [arr, i, v] -> [v, arr, i]. */
  private void loadKeepingArrayAndIndex(int opcode) {
    mv.visitInsn(DUP2);
    super.visitInsn(opcode);
    if (opcode == LALOAD || opcode == DALOAD) {
      mv.visitInsn(DUP2_X2);
      mv.visitInsn(POP2);
    } else {
      mv.visitInsn(DUP_X2);
      mv.visitInsn(POP);
    }
  }

  /**
   * The last of a group of element writes (RedundantChecks): the store, then one check of the group's range:
   * [arr, i, v] -> [v, arr, i] -> [arr, i, v, arr, i] -> [arr, i, arr, i, v] -> (store) [arr, i] -> the check.
   */
  private void writeElementsAfterStore(int opcode, int[] range) {
    if (opcode == LASTORE || opcode == DASTORE) {
      mv.visitInsn(DUP2_X2); // [v, arr, i, v]
      mv.visitInsn(POP2);    // [v, arr, i]
      mv.visitInsn(DUP2_X2); // [arr, i, v, arr, i]
      mv.visitInsn(DUP2_X2); // [arr, i, arr, i, v, arr, i]
      mv.visitInsn(POP2);    // [arr, i, arr, i, v]
    } else {
      mv.visitInsn(DUP_X2);  // [v, arr, i, v]
      mv.visitInsn(POP);     // [v, arr, i]
      mv.visitInsn(DUP2_X1); // [arr, i, v, arr, i]
      mv.visitInsn(DUP2_X1); // [arr, i, arr, i, v, arr, i]
      mv.visitInsn(POP2);    // [arr, i, arr, i, v]
    }
    super.visitInsn(opcode);
    checkRange(range, HookMethod.WRITE_ELEMENTS);
  }

  /** [arr, i] -> [arr, i + from, i + to, site] and the range hook, reported at the group's first line. */
  private void checkRange(int[] range, HookMethod hook) {
    mv.visitInsn(DUP);          // [arr, i, i]
    pushInt(range[1]);
    mv.visitInsn(IADD);         // [arr, i, i + to]
    mv.visitInsn(SWAP);         // [arr, i + to, i]
    pushInt(range[0]);
    mv.visitInsn(IADD);         // [arr, i + to, i + from]
    mv.visitInsn(SWAP);         // [arr, i + from, i + to]
    pushInt(range[2] < 0 ? site() : siteAt(range[2]));
    callAccessHook(hook);
  }

  /**
   * Calls a monitor hook (its argument on the stack) so that nothing it throws — a {@code StackOverflowError} at the
   * call itself, before the hook's own catch-all runs — escapes between a {@code monitorenter} and javac's protected
   * region, or into the handler that re-runs {@code monitorexit}: either would leave the monitor held or exit it
   * twice (an {@code IllegalMonitorStateException} or a hang the program does not have). The guard is first in the
   * exception table and drops the throwable: the program goes on as it would without the agent, only that one
   * acquire or release is not recorded.
   *
   * <p>The guard is a catch-all ({@code any}), not {@code catch (Throwable)}, though both catch the same. HotSpot
   * compiles a method with {@code monitorenter} only if its monitors balance on every path (GenerateOopMap), and an
   * instruction that can throw while a monitor is held counts as balanced only when a catch-all handler covers it:
   * the hook call between {@code monitorenter} and javac's region is covered by nothing else. With a typed guard
   * neither compiler accepted any method with a {@code synchronized} block — the application's, and
   * {@code ConcurrentHashMap}'s — so they ran interpreted for ever (JitCompilableIT).
   */
  private void guardedCall(HookMethod hook) {
    Label start = new Label();
    Label end = new Label();
    Label guard = new Label();
    Label after = new Label();
    exceptionTable.visitTryCatchBlockFirst(start, end, guard, null);
    mv.visitLabel(start);
    hook.call(mv);
    mv.visitLabel(end);
    mv.visitJumpInsn(GOTO, after);
    mv.visitLabel(guard);
    mv.visitInsn(POP);
    mv.visitLabel(after);
  }

  /** {@code Arrays.fill(T[], T)} or {@code Arrays.fill(T[], int, int, T)} of a primitive array. */
  /** {@code Arrays.copyOf(a, n)} / {@code copyOfRange(a, from, to)} of a primitive array: its jumble hook, else null. */
  private static JumbleHookMethod primitiveCopy(String name, String descriptor) {
    Type[] args = Type.getArgumentTypes(descriptor);
    boolean primitiveArray = args.length >= 2 && args[0].getSort() == Type.ARRAY && args[0].getDimensions() == 1
        && args[0].getElementType().getSort() <= Type.DOUBLE;
    if (!primitiveArray || !args[0].equals(Type.getReturnType(descriptor))) {
      return null;
    }
    if (name.equals("copyOf") && args.length == 2 && args[1] == Type.INT_TYPE) {
      return JumbleHookMethod.COPY_OF;
    }
    return name.equals("copyOfRange") && args.length == 3 && args[1] == Type.INT_TYPE && args[2] == Type.INT_TYPE
        ? JumbleHookMethod.COPY_OF_RANGE : null;
  }

  private static boolean isPrimitiveFill(String descriptor) {
    Type[] args = Type.getArgumentTypes(descriptor);
    return (args.length == 2 || args.length == 4) && args[0].getSort() == Type.ARRAY
        && args[0].getDimensions() == 1 && args[0].getElementType().getSort() <= Type.DOUBLE;
  }

  /** Jumble mode: the fill's arguments spilled to locals, the fill, then {@code JumbleHooks.filled(a, from, to)}. */
  private void jumbledFill(int opcode, String owner, String name, String descriptor, boolean isInterface) {
    Type[] args = Type.getArgumentTypes(descriptor);
    int[] locals = new int[args.length];
    for (int i = args.length - 1; i >= 0; i--) {
      locals[i] = newLocal(args[i]);
      mv.visitVarInsn(args[i].getOpcode(ISTORE), locals[i]);
    }
    pushFillRange(locals, args.length == 4);
    JumbleHookMethod.FILLING.call(mv);
    for (int i = 0; i < args.length; i++) {
      mv.visitVarInsn(args[i].getOpcode(ILOAD), locals[i]);
    }
    super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    pushFillRange(locals, args.length == 4);
    JumbleHookMethod.FILLED.call(mv);
  }

  /** [array, from, to] of a spilled fill (the whole array when it has no range). */
  private void pushFillRange(int[] locals, boolean ranged) {
    mv.visitVarInsn(ALOAD, locals[0]);
    if (ranged) {
      mv.visitVarInsn(ILOAD, locals[1]);
      mv.visitVarInsn(ILOAD, locals[2]);
    } else {
      mv.visitInsn(ICONST_0);
      mv.visitVarInsn(ALOAD, locals[0]); // not an LDC: the class cache's id placeholders are integer constants
      mv.visitInsn(ARRAYLENGTH);
    }
  }

  /** Jumble mode: primitive element accesses are hooked only when some array field is under trial. */
  private void jumbleArrayInsn(int opcode) {
    boolean hooked = receiverReady && ctx.jumble().hasArrays() && JumbleAccessEmitter.isPrimitiveElementAccess(opcode);
    if (hooked && isArrayLoad(opcode)) {
      jumble.beforeElementRead();
      super.visitInsn(opcode);
      jumble.afterElementRead(opcode);
      return;
    }
    if (hooked) {
      jumble.beforeElementWrite(opcode);
    }
    super.visitInsn(opcode);
  }

  private static boolean isArrayLoad(int opcode) {
    return opcode >= IALOAD && opcode <= SALOAD;
  }

  private static boolean isArrayStore(int opcode) {
    return opcode >= IASTORE && opcode <= SASTORE;
  }

  // ---- calls ----

  @Override
  public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
    if (!receiverReady) {
      // before super(...) the constructor's stack is tracked by AdviceAdapter from the original instructions
      super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
      return;
    }
    if ((opcode == INVOKEVIRTUAL || opcode == INVOKEINTERFACE) && name.equals("wait")) {
      HookMethod hook = switch (descriptor) {
        case "()V" -> HookMethod.WAIT;
        case "(J)V" -> HookMethod.WAIT_MILLIS;
        case "(JI)V" -> HookMethod.WAIT_MILLIS_NANOS;
        default -> null;
      };
      if (hook != null) {
        hook.call(mv); // Object.wait is final (no class or interface can redeclare it): every such call is it
        return;
      }
    }
    if (checkAccesses && opcode == INVOKEVIRTUAL && name.equals("isAlive") && descriptor.equals("()Z")
        && isThread(owner)) {
      HookMethod.IS_ALIVE.call(mv);
      return;
    }
    if (jumble != null && ctx.jumble().hasArrays() && opcode == INVOKESTATIC && owner.equals("java/lang/System")
        && name.equals("arraycopy") && descriptor.equals("(Ljava/lang/Object;ILjava/lang/Object;II)V")) {
      JumbleHookMethod.ARRAYCOPY.call(mv); // jumbled elements copied through their write buffers
      return;
    }
    if (jumble != null && ctx.jumble().hasArrays() && opcode == INVOKEVIRTUAL && owner.length() == 2
        && owner.charAt(0) == '[' && name.equals("clone") && descriptor.equals("()Ljava/lang/Object;")) {
      mv.visitInsn(DUP);                                                     // [a, a]
      super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);  // [a, copy]
      JumbleHookMethod.COPIED.call(mv);                                      // [copy]
      return;
    }
    if (jumble != null && ctx.jumble().hasArrays() && opcode == INVOKESTATIC && owner.equals("java/util/Arrays")
        && name.equals("fill") && isPrimitiveFill(descriptor)) {
      jumbledFill(opcode, owner, name, descriptor, isInterface);
      return;
    }
    JumbleHookMethod copy = jumble != null && ctx.jumble().hasArrays() && opcode == INVOKESTATIC
        && owner.equals("java/util/Arrays") ? primitiveCopy(name, descriptor) : null;
    if (copy != null) {
      copy.call(mv); // the copy, with a jumbled original's sampled elements as their buffers serve them
      mv.visitTypeInsn(CHECKCAST, Type.getReturnType(descriptor).getInternalName());
      return;
    }
    BulkArrayCalls.Model bulk = bulkArrays != null ? BulkArrayCalls.of(opcode, owner, name, descriptor) : null;
    if (bulk != null && confinedBulkCalls.get(bulkCalls++)) {
      super.visitMethodInsn(opcode, owner, name, descriptor, isInterface); // its arrays never leave the frame
      return;
    }
    if (bulk != null) {
      bulkArrays.call(bulk, opcode, owner, name, descriptor, isInterface, site());
      return;
    }
    int unsafe = bulkArrays != null && opcode == INVOKEVIRTUAL ? AtomicCall.plainUnsafeAccess(owner, name, descriptor) : 0;
    if (unsafe != 0) { // a plain Unsafe get or put: checked as the field or elements it names (UnsafeHooks)
      SpilledCall call = SpilledCall.spill(this, opcode, owner, name, descriptor);
      call.load(1);
      call.load(2);
      pushInt(unsafe);
      pushInt(site());
      mv.visitMethodInsn(INVOKESTATIC, UNSAFE_HOOKS, "access", "(Ljava/lang/Object;JII)V", false);
      call.reload();
      mv.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
      return;
    }
    int[] container = containers ? ContainerModel.accesses(opcode, owner, name, descriptor) : null;
    if (container != null) {
      containerCall(opcode, owner, name, descriptor, isInterface, container);
      return;
    }
    int[] tried = containerTrials ? ContainerModel.accesses(opcode, owner, name, descriptor) : null;
    if (tried != null) {
      perturbedContainerCall(opcode, owner, name, descriptor, isInterface, tried);
      return;
    }
    int mode = opcode == INVOKEVIRTUAL ? AtomicCall.mode(owner, name) : 0;
    if (mode != 0 && (checkAccesses || !ClassFilter.isQueueBookkeepingAtomic(ctx.internalName(), name))) {
      atomicCall(owner, name, descriptor, mode);
      return;
    }
    super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
  }

  /**
   * A modelled container call: receiver and arguments spilled, each container it writes checked before the call and
   * each it reads after the call returned (as a field's write before its store and read after its load).
   */
  private void containerCall(int opcode, String owner, String name, String descriptor, boolean isInterface,
                             int[] accesses) {
    int ordinal = containerCalls++;
    int confined = ordinal < confinedContainers.length ? confinedContainers[ordinal] : 0;
    if (confined != 0) {
      accesses = accesses.clone();
      for (int i = 0; i < accesses.length; i++) {
        if ((confined & (1 << Math.min(i, 31))) != 0) {
          accesses[i] = ContainerModel.NONE; // a container that never leaves this frame (ConfinedContainers)
        }
      }
      if (java.util.Arrays.stream(accesses).allMatch(a -> a == ContainerModel.NONE)) {
        mv.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        return;
      }
    }
    SpilledCall call = SpilledCall.spill(this, opcode, owner, name, descriptor);
    for (int i = 0; i < accesses.length; i++) {
      if (accesses[i] == ContainerModel.WRITE) {
        containerHook(call, i, ContainerModel.WRITE);
      }
    }
    call.reload();
    mv.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    for (int i = 0; i < accesses.length; i++) {
      if (accesses[i] == ContainerModel.READ) {
        containerHook(call, i, ContainerModel.READ);
      }
    }
  }

  /**
   * Jumble mode, a container key under trial: a modelled call is bracketed by {@code ContainerTrials.enter} (which may
   * perturb the schedule, and counts overlapping calls) for each container it touches, and {@code exit} after it.
   */
  private void perturbedContainerCall(int opcode, String owner, String name, String descriptor, boolean isInterface,
                                      int[] accesses) {
    SpilledCall call = SpilledCall.spill(this, opcode, owner, name, descriptor);
    int unnamed = ctx.jumble().unnamedContainerSlot(ctx.internalName(), methodName);
    for (int i = 0; i < accesses.length; i++) {
      if (accesses[i] != ContainerModel.NONE) {
        call.load(i);
        pushInt(accesses[i]);
        pushInt(unnamed);
        mv.visitMethodInsn(INVOKESTATIC, CONTAINER_TRIALS, "enter", "(Ljava/lang/Object;II)V", false);
      }
    }
    call.reload();
    mv.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    for (int i = 0; i < accesses.length; i++) {
      if (accesses[i] != ContainerModel.NONE) {
        call.load(i);
        mv.visitMethodInsn(INVOKESTATIC, CONTAINER_TRIALS, "exit", "(Ljava/lang/Object;)V", false);
      }
    }
  }

  private void containerHook(SpilledCall call, int position, int access) {
    call.load(position);
    pushInt(access);
    pushInt(site());
    callContainerHook("call", "(Ljava/lang/Object;II" + THREAD_SLOT_TYPE + ")" + THREAD_SLOT_TYPE);
  }

  /** A {@code ContainerHooks} method taking and returning the thread slot, as {@link #callAccessHook} calls hooks. */
  private void callContainerHook(String name, String descriptor) {
    withThreadSlot(() -> mv.visitMethodInsn(INVOKESTATIC, CONTAINER_HOOKS, name, descriptor, false));
  }

  private boolean isThread(String owner) {
    return owner.equals("java/lang/Thread") || ctx.hierarchy().isSubclassOf(ctx.loader(), owner, "java/lang/Thread");
  }

  /**
   * A VarHandle or Unsafe operation: spill its receiver and arguments to fresh locals so the hooks can see the
   * first argument (the object or array operated on), then release before and acquire after the call.
   */
  private void atomicCall(String owner, String name, String descriptor, int mode) {
    Type[] args = Type.getArgumentTypes(descriptor);
    int[] locals = new int[args.length];
    for (int i = args.length - 1; i >= 0; i--) {
      locals[i] = newLocal(args[i]);
      storeLocal(locals[i], args[i]);
    }
    Type receiverType = Type.getObjectType(owner);
    int receiver = newLocal(receiverType);
    storeLocal(receiver, receiverType);
    boolean varHandle = owner.equals(AtomicCall.VAR_HANDLE);
    pushAtomicArguments(varHandle, receiver, receiverType, args, locals, mode);
    HookMethod.ATOMIC_BEFORE.call(mv);
    loadLocal(receiver, receiverType);
    for (int i = 0; i < args.length; i++) {
      loadLocal(locals[i], args[i]);
    }
    mv.visitMethodInsn(INVOKEVIRTUAL, owner, name, descriptor, false);
    pushAtomicArguments(varHandle, receiver, receiverType, args, locals, mode);
    HookMethod.ATOMIC_AFTER.call(mv);
  }

  private void pushAtomicArguments(boolean varHandle, int receiver, Type receiverType, Type[] args, int[] locals,
                                   int mode) {
    if (varHandle) {
      loadLocal(receiver, receiverType); // a static-field handle stands for its field
    } else {
      mv.visitInsn(ACONST_NULL); // Unsafe with a null base is an absolute address: no object to order on
    }
    int sort = args.length > 0 ? args[0].getSort() : Type.VOID;
    if (sort == Type.OBJECT || sort == Type.ARRAY) {
      loadLocal(locals[0], args[0]);
    } else {
      mv.visitInsn(ACONST_NULL);
    }
    pushInt(mode);
  }

  // ---- helpers ----

  private int site() {
    return siteAt(line);
  }

  /** The site id of {@code line} in this method. */
  private int siteAt(int at) {
    return siteByLine.computeIfAbsent(at, l -> ctx.ids().site(ctx.binaryName(), methodName, ctx.sourceFile(), l));
  }

  private void pushInt(int value) {
    if (value >= -1 && value <= 5) {
      mv.visitInsn(ICONST_0 + value);
    } else if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
      mv.visitIntInsn(BIPUSH, value);
    } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
      mv.visitIntInsn(SIPUSH, value);
    } else {
      mv.visitLdcInsn(value);
    }
  }
}
