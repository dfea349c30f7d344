package dev.racetriage.agent.instrument;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.MethodNode;

/** Routes each method with code through an {@link EventInstrumenter} (application or trusted JDK policy). */
final class InstrumentingClassVisitor extends ClassVisitor {
  private ClassContext ctx;
  private final boolean checkAccesses;
  /** Which classes are application classes (they have, or inherit, a shadow slot: {@link ShadowSlot}). */
  private final java.util.function.Predicate<String> applicationClass;
  /** A trusted JDK class that may declare the slot (detect mode, its first definition: {@link ShadowSlot}). */
  private final boolean jdkSlot;
  private boolean declareSlot;
  /** A trusted JDK class declaring the slot: it also declares the releaser if it has a plain reference field. */
  private boolean jdkDeclaresSlot;
  private boolean plainReferenceField;

  /** The methods ({@code name + descriptor}) instrumented without linked slot loads ({@link HugeMethods}). */
  private final java.util.Set<String> unlinked;

  InstrumentingClassVisitor(ClassVisitor next, ClassContext ctx, boolean checkAccesses,
                            java.util.function.Predicate<String> applicationClass, boolean jdkSlot,
                            java.util.Set<String> unlinked) {
    super(Opcodes.ASM9, next);
    this.unlinked = unlinked;
    this.jdkSlot = jdkSlot;
    this.ctx = ctx;
    this.checkAccesses = checkAccesses;
    this.applicationClass = applicationClass;
  }

  @Override
  public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
    jdkDeclaresSlot = jdkSlot && ShadowSlot.declaredByJdk(access, superName);
    declareSlot = checkAccesses && ctx.jumble() == null && ShadowSlot.declaredBy(access, superName, applicationClass)
        || jdkDeclaresSlot;
    ctx = ctx.withDeclaresSlot(declareSlot);
    super.visit(version, access, name, signature, superName, interfaces);
  }

  @Override
  public org.objectweb.asm.FieldVisitor visitField(int access, String name, String descriptor, String signature,
                                                   Object value) {
    plainReferenceField |= ShadowSlot.plainReference(access, descriptor);
    return super.visitField(access, name, descriptor, signature, value);
  }

  @Override
  public void visitEnd() {
    if (declareSlot) {
      ShadowSlot.declare(cv);
      if (jdkDeclaresSlot && plainReferenceField) {
        ShadowSlot.declareReleaser(cv); // fields come before visitEnd: the class's own are all seen
      }
    }
    super.visitEnd();
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
    ClassContext ctx = unlinked.contains(name + descriptor) ? this.ctx.withoutLinkedSlotReads() : this.ctx;
    HandlerLastMethodNode buffered = new HandlerLastMethodNode(ctx.internalName(), access, name, descriptor, signature,
        exceptions, next);
    if (checkAccesses && ctx.jumble() == null && !name.equals("<init>") && !name.equals("<clinit>")) {
      return new LoopHoistingMethod(access, name, descriptor, signature, exceptions, buffered, ctx);
    }
    RedundantChecks.Covered covered = RedundantChecks.NONE;
    java.util.BitSet stableBulkCalls = new java.util.BitSet();
    if (checkAccesses && ctx.jumble() == null && !ctx.stableArrays().isEmpty()) { // a constructor, <clinit>
      // their stable arrays' accesses, bulk calls and names go unhooked (StableArrays); no other rule runs here
      StableArrays.Skips skips = ctx.stableArrays().skips(name, descriptor);
      covered = new RedundantChecks.Covered(new java.util.BitSet(), skips.elements(), java.util.Map.of(),
          java.util.Map.of(), skips.names());
      stableBulkCalls = skips.bulkCalls();
    }
    MethodVisitor events = accessesAndEvents(buffered, access, name, descriptor, ctx, checkAccesses,
        LoopCheckHoister.Hoisted.NONE, new java.util.BitSet(), ConfinedContainers.NONE, covered,
        stableBulkCalls, null, null);
    // trusted JDK code: a read lock's contract replaces its implementation's edges (LockContracts)
    return checkAccesses ? events : LockContracts.wrap(events, ctx.internalName(), name, descriptor);
  }

  private static MethodVisitor accessesAndEvents(HandlerLastMethodNode buffered, int access, String name,
                                                 String descriptor, ClassContext ctx, boolean checkAccesses,
                                                 LoopCheckHoister.Hoisted hoisted,
                                                 java.util.BitSet transparentMonitors, int[] confinedContainers,
                                                 RedundantChecks.Covered covered,
                                                 java.util.BitSet confinedBulkCalls,
                                                 java.util.BitSet guardedAccesses,
                                                 java.util.BitSet repeatStores) {
    EventInstrumenter instrumenter = new EventInstrumenter(buffered, access, name, descriptor, ctx, checkAccesses,
        hoisted, transparentMonitors, confinedContainers, covered, confinedBulkCalls);
    instrumenter.guardedAccesses(guardedAccesses);
    instrumenter.repeatGuardedStores(repeatStores);
    return checkAccesses ? new CompoundUpdateMarker(instrumenter) : instrumenter;
  }

  /**
   * The instructions of {@code method} (its original code) that {@link StableArrays} leaves unhooked: array loads and
   * stores of stable arrays, bulk calls all of whose ranges are theirs, and the field instructions of stable fields
   * (no naming hook).
   */
  static java.util.Set<org.objectweb.asm.tree.AbstractInsnNode> stableInsns(StableArrays stable,
                                                                            org.objectweb.asm.tree.MethodNode method) {
    if (stable.isEmpty()) {
      return java.util.Set.of();
    }
    StableArrays.Skips skips = stable.skips(method.name, method.desc);
    if (skips.isEmpty()) {
      return java.util.Set.of();
    }
    java.util.Set<org.objectweb.asm.tree.AbstractInsnNode> out =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    int ordinal = 0;
    int fieldOrdinal = 0;
    int bulkOrdinal = 0;
    for (org.objectweb.asm.tree.AbstractInsnNode insn = method.instructions.getFirst(); insn != null;
         insn = insn.getNext()) {
      int op = insn.getOpcode();
      if (ConfinedArrays.isArrayLoad(op) || ConfinedArrays.isArrayStore(op)) {
        if (skips.elements().get(ordinal++)) {
          out.add(insn);
        }
      } else if (insn instanceof org.objectweb.asm.tree.FieldInsnNode) {
        if (skips.names().get(fieldOrdinal++)) {
          out.add(insn);
        }
      } else if (insn instanceof org.objectweb.asm.tree.MethodInsnNode call
          && BulkArrayCalls.of(op, call.owner, call.name, call.desc) != null && skips.bulkCalls().get(bulkOrdinal++)) {
        out.add(insn);
      }
    }
    return out;
  }

  /**
   * The element accesses of {@code method} (by ordinal among its array loads and stores) outside every loop — no
   * backward jump spans them — where the owned-element guards go ({@code EventInstrumenter#guardedElementRead},
   * {@code #guardedElementWrite}): a getter's read, a lambda's {@code total[0] += n}, whose hooks would also look their
   * thread up. An access in a loop finds the thread in the method's slot after its first hook, and in a kernel's loop
   * it most often touches shared arrays, where a guard only adds work (the Java Grande kernels' short runs: up to 25 %
   * more CPU with read guards in loops too; lufact about 15 % with write guards in loops, whose stores in loops then
   * take the write hook's own owner check instead).
   */
  static java.util.BitSet accessesOutsideLoops(MethodNode method) {
    return accessesOutsideLoops(method, accessesInLoops(method));
  }

  /**
   * The element accesses of {@code method} (by ordinal among its array loads and stores) that are not in
   * {@code inLoops}: the original code's accesses in loops, found before the loop hoister appended its exit
   * trampolines — each ends in a jump back to its exit's target, which would make everything after a hoisted loop
   * look like a loop's body.
   */
  static java.util.BitSet accessesOutsideLoops(MethodNode method,
                                               java.util.Set<org.objectweb.asm.tree.AbstractInsnNode> inLoops) {
    java.util.BitSet accesses = ordinalsOf(method, inLoops);
    accesses.flip(0, ordinalsOf(method, null).cardinality());
    return accesses;
  }

  /**
   * The ordinals (among {@code method}'s element loads and stores) of the accesses in {@code accesses}; null: of all of
   * them.
   */
  static java.util.BitSet ordinalsOf(MethodNode method,
                                     java.util.Set<org.objectweb.asm.tree.AbstractInsnNode> accesses) {
    java.util.BitSet ordinals = new java.util.BitSet();
    int ordinal = 0;
    for (org.objectweb.asm.tree.AbstractInsnNode insn = method.instructions.getFirst(); insn != null;
         insn = insn.getNext()) {
      int op = insn.getOpcode();
      if (ConfinedArrays.isArrayLoad(op) || ConfinedArrays.isArrayStore(op)) {
        if (accesses == null || accesses.contains(insn)) {
          ordinals.set(ordinal);
        }
        ordinal++;
      }
    }
    return ordinals;
  }

  /** The element loads and stores of {@code method} that a backward jump spans (a loop's). */
  static java.util.Set<org.objectweb.asm.tree.AbstractInsnNode> accessesInLoops(MethodNode method) {
    java.util.Map<org.objectweb.asm.tree.LabelNode, Integer> at = new java.util.IdentityHashMap<>();
    int n = 0;
    for (org.objectweb.asm.tree.AbstractInsnNode insn = method.instructions.getFirst(); insn != null;
         insn = insn.getNext(), n++) {
      if (insn instanceof org.objectweb.asm.tree.LabelNode label) {
        at.put(label, n);
      }
    }
    java.util.BitSet inLoop = new java.util.BitSet();
    n = 0;
    for (org.objectweb.asm.tree.AbstractInsnNode insn = method.instructions.getFirst(); insn != null;
         insn = insn.getNext(), n++) {
      java.util.List<org.objectweb.asm.tree.LabelNode> targets = java.util.List.of();
      if (insn instanceof org.objectweb.asm.tree.JumpInsnNode jump) {
        targets = java.util.List.of(jump.label);
      } else if (insn instanceof org.objectweb.asm.tree.TableSwitchInsnNode table) {
        targets = new java.util.ArrayList<>(table.labels);
        targets.add(table.dflt);
      } else if (insn instanceof org.objectweb.asm.tree.LookupSwitchInsnNode lookup) {
        targets = new java.util.ArrayList<>(lookup.labels);
        targets.add(lookup.dflt);
      }
      for (org.objectweb.asm.tree.LabelNode target : targets) {
        Integer to = at.get(target);
        if (to != null && to <= n) {
          inLoop.set(to, n + 1);
        }
      }
    }
    java.util.Set<org.objectweb.asm.tree.AbstractInsnNode> accesses =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    n = 0;
    for (org.objectweb.asm.tree.AbstractInsnNode insn = method.instructions.getFirst(); insn != null;
         insn = insn.getNext(), n++) {
      int op = insn.getOpcode();
      if ((ConfinedArrays.isArrayLoad(op) || ConfinedArrays.isArrayStore(op)) && inLoop.get(n)) {
        accesses.add(insn);
      }
    }
    return accesses;
  }

  /**
   * Detect mode, application methods (not constructors or class initialisers): the method is buffered as a tree,
   * its counted loops get range checks at their exits ({@link LoopCheckHoister}), and then it goes through the usual
   * instrumentation without the element hooks those checks replace, nor the checks an earlier write check of the same
   * location in the same synchronisation-free stretch stands for ({@link RedundantChecks}).
   */
  private static final class LoopHoistingMethod extends MethodNode {
    private final HandlerLastMethodNode buffered;
    private final ClassContext ctx;

    LoopHoistingMethod(int access, String name, String descriptor, String signature, String[] exceptions,
                       HandlerLastMethodNode buffered, ClassContext ctx) {
      super(Opcodes.ASM9, access, name, descriptor, signature, exceptions);
      this.buffered = buffered;
      this.ctx = ctx;
    }

    @Override
    public void visitEnd() {
      super.visitEnd();
      java.util.BitSet transparent = TransparentSections.enabled() ? TransparentSections.find(this) // original code
          : new java.util.BitSet();
      int[] confined = ContainerModel.enabled() ? ConfinedContainers.find(ctx.internalName(), this) // original code
          : ConfinedContainers.NONE;
      ConfinedArrays.Confined confinedArrays = ConfinedArrays.find(ctx.internalName(), this); // original code
      java.util.Set<org.objectweb.asm.tree.AbstractInsnNode> stable = stableInsns(ctx.stableArrays(), this);
      java.util.Set<org.objectweb.asm.tree.AbstractInsnNode> unchecked = confinedArrays.accesses();
      if (!stable.isEmpty()) {
        unchecked = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        unchecked.addAll(confinedArrays.accesses());
        for (org.objectweb.asm.tree.AbstractInsnNode insn : stable) {
          if (ConfinedArrays.isArrayLoad(insn.getOpcode()) || ConfinedArrays.isArrayStore(insn.getOpcode())) {
            unchecked.add(insn); // the array accesses; field instructions lose their naming hook, bulk calls theirs
          }
        }
      }
      java.util.Set<org.objectweb.asm.tree.AbstractInsnNode> inLoops = accessesInLoops(this); // original code
      java.util.Set<org.objectweb.asm.tree.AbstractInsnNode> repeatStores =
          RepeatedWrites.find(ctx.internalName(), this, inLoops); // original code
      LoopCheckHoister.Hoisted hoisted = LoopCheckHoister.hoist(ctx.internalName(), this, ctx, unchecked);
      RedundantChecks.Covered covered = RedundantChecks.find(ctx.internalName(), this, ctx, hoisted, // hoisted code
          !transparent.isEmpty());
      java.util.BitSet confinedBulkCalls = new java.util.BitSet();
      if (!confinedArrays.isEmpty() || !stable.isEmpty()) { // their accesses and bulk calls go unhooked, as covered
        java.util.BitSet elements = (java.util.BitSet) covered.elements().clone(); // ones do; stable arrays' names too
        java.util.BitSet named = (java.util.BitSet) covered.named().clone();
        int ordinal = 0;
        int bulkOrdinal = 0;
        int fieldOrdinal = 0;
        for (org.objectweb.asm.tree.AbstractInsnNode insn = instructions.getFirst(); insn != null;
             insn = insn.getNext()) {
          int op = insn.getOpcode();
          if (ConfinedArrays.isArrayLoad(op) || ConfinedArrays.isArrayStore(op)) {
            if (unchecked.contains(insn)) {
              elements.set(ordinal);
            }
            ordinal++;
          } else if (insn instanceof org.objectweb.asm.tree.FieldInsnNode) {
            if (stable.contains(insn)) {
              named.set(fieldOrdinal);
            }
            fieldOrdinal++;
          } else if (insn instanceof org.objectweb.asm.tree.MethodInsnNode call
              && BulkArrayCalls.of(op, call.owner, call.name, call.desc) != null) {
            if (confinedArrays.bulkCalls().contains(insn) || stable.contains(insn)) {
              confinedBulkCalls.set(bulkOrdinal);
            }
            bulkOrdinal++;
          }
        }
        covered = new RedundantChecks.Covered(covered.fields(), elements, covered.combined(), covered.ranges(),
            named);
      }
      accept(accessesAndEvents(buffered, access, name, desc, ctx, true, hoisted, transparent, confined, covered,
          confinedBulkCalls, accessesOutsideLoops(this, inLoops), ordinalsOf(this, repeatStores)));
    }
  }
}
