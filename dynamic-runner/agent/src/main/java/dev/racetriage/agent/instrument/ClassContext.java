package dev.racetriage.agent.instrument;

import dev.racetriage.agent.runtime.JumbleTargets;

/**
 * What the method instrumenters of one class share: where the class comes from (to resolve the fields it
 * references), and the placeholders its field and site ids are emitted as ({@link IdPlaceholders}).
 *
 * @param internalName the class being transformed, {@code pkg/Cls}
 * @param sourceFile   the SourceFile attribute, or null
 * @param version      the class-file major version
 * @param jumble       the fields under trial in jumble mode; null in detect mode
 * @param declaresSlot the class declares the shadow slot itself ({@link ShadowSlot}): its methods may read it
 * @param linkedSlotReads the owned-read guard may read a superclass's slot through linked loads (see
 *                     {@code EventInstrumenter#guardOwnedRead}); false where they would take a method past
 *                     {@link HugeMethods#LIMIT}
 * @param quietCallees the class's static and private methods a counted loop may call ({@link QuietCallees}), as
 *                     {@code name + descriptor}
 * @param guardedWrites the write sites that get the owned-write guard if the class declares the slot
 *                     ({@link GuardedWrites}); like the linked slot reads, none where they would take a method past
 *                     {@link HugeMethods#LIMIT}
 * @param stableArrays the class's arrays no access of which can race ({@link StableArrays}): detect mode
 */
record ClassContext(String internalName, String sourceFile, int version, ClassLoader loader,
                    ClassHierarchy hierarchy, IdPlaceholders ids,
                    JumbleTargets jumble, boolean declaresSlot, boolean linkedSlotReads,
                    java.util.Set<String> quietCallees, GuardedWrites guardedWrites, StableArrays stableArrays) {

  ClassContext(String internalName, String sourceFile, int version, ClassLoader loader, ClassHierarchy hierarchy,
               IdPlaceholders ids, JumbleTargets jumble) {
    this(internalName, sourceFile, version, loader, hierarchy, ids, jumble, false, true, java.util.Set.of(),
        GuardedWrites.NONE, StableArrays.NONE);
  }

  String binaryName() {
    return internalName.replace('/', '.');
  }

  ClassContext withSourceFile(String file) {
    return new ClassContext(internalName, file, version, loader, hierarchy, ids, jumble, declaresSlot, linkedSlotReads,
        quietCallees, guardedWrites, stableArrays);
  }

  ClassContext withDeclaresSlot(boolean declares) {
    return new ClassContext(internalName, sourceFile, version, loader, hierarchy, ids, jumble, declares,
        linkedSlotReads, quietCallees, guardedWrites, stableArrays);
  }

  ClassContext withoutLinkedSlotReads() {
    return new ClassContext(internalName, sourceFile, version, loader, hierarchy, ids, jumble, declaresSlot, false,
        quietCallees, GuardedWrites.NONE, stableArrays);
  }

  /** With the class's methods a counted loop may call ({@link QuietCallees}, as {@code name + descriptor}). */
  ClassContext withQuietCallees(java.util.Set<String> callees) {
    return new ClassContext(internalName, sourceFile, version, loader, hierarchy, ids, jumble, declaresSlot,
        linkedSlotReads, callees, guardedWrites, stableArrays);
  }

  /** With the write sites that get the owned-write guard ({@link GuardedWrites}). */
  ClassContext withGuardedWrites(GuardedWrites writes) {
    return new ClassContext(internalName, sourceFile, version, loader, hierarchy, ids, jumble, declaresSlot,
        linkedSlotReads, quietCallees, writes, stableArrays);
  }

  /** With the class's stable arrays ({@link StableArrays}). */
  ClassContext withStableArrays(StableArrays stable) {
    return new ClassContext(internalName, sourceFile, version, loader, hierarchy, ids, jumble, declaresSlot,
        linkedSlotReads, quietCallees, guardedWrites, stable);
  }
}
