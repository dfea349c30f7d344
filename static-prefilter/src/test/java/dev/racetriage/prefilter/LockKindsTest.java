package dev.racetriage.prefilter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.racetriage.prefilter.facts.Access;
import dev.racetriage.prefilter.facts.HeldLock;
import dev.racetriage.prefilter.facts.LockMode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each kind of lock protects (…Ok) or fails to (…Bad). */
class LockKindsTest {

  @TempDir Path dir;
  @TempDir Path factsDir;

  /** The …Ok fixtures are quiet because of their locks, not because the analysis missed their threads. */
  private void everySharedAccessLocked(String fixture, String fieldKey) {
    List<Access> shared = Fixtures.facts(factsDir, fixture).accesses().stream()
        .filter(a -> a.fieldKey().equals(fieldKey) && !a.initialisation()).toList();
    org.junit.jupiter.api.Assertions.assertFalse(shared.isEmpty(), "no accesses of " + fieldKey);
    for (Access access : shared) {
      org.junit.jupiter.api.Assertions.assertFalse(access.locks().isEmpty(),
          fieldKey + " line " + access.line() + " should hold a lock");
    }
  }

  @Test
  void synchronizedBlocksOnOneLockObject() {
    everySharedAccessLocked("SynchronizedBlockOnLockObjectOk", "fixtures.SynchronizedBlockOnLockObjectOk.balance");
    Expect.noCandidate(Fixtures.scan(dir, "SynchronizedBlockOnLockObjectOk"),
        "fixtures.SynchronizedBlockOnLockObjectOk.balance");
  }

  @Test
  void staticSynchronizedMethodAndClassLiteralBlockShareTheClassLock() {
    everySharedAccessLocked("StaticSynchronizedOk", "fixtures.StaticSynchronizedOk.instances");
    Expect.noCandidate(Fixtures.scan(dir, "StaticSynchronizedOk"), "fixtures.StaticSynchronizedOk.instances");
  }

  @Test
  void lockThenTryFinallyUnlock() {
    everySharedAccessLocked("ReentrantLockOk", "fixtures.ReentrantLockOk.total");
    Expect.noCandidate(Fixtures.scan(dir, "ReentrantLockOk"), "fixtures.ReentrantLockOk.total");
  }

  @Test
  void tryLockHoldsTheLockInItsThenBranch() {
    everySharedAccessLocked("TryLockOk", "fixtures.TryLockOk.attempts");
    Expect.noCandidate(Fixtures.scan(dir, "TryLockOk"), "fixtures.TryLockOk.attempts");
  }

  @Test
  void readLockForReadsWriteLockForWrites() {
    everySharedAccessLocked("ReadWriteLockOk", "fixtures.ReadWriteLockOk.table");
    Expect.noCandidate(Fixtures.scan(dir, "ReadWriteLockOk"), "fixtures.ReadWriteLockOk.table");
  }

  @Test
  void readAndWriteHalvesKeptInFields() {
    everySharedAccessLocked("ReadWriteLockAliasOk", "fixtures.ReadWriteLockAliasOk.value");
    Expect.noCandidate(Fixtures.scan(dir, "ReadWriteLockAliasOk"), "fixtures.ReadWriteLockAliasOk.value");
  }

  @Test
  void writingUnderTheReadLockIsNotExclusive() {
    Candidate version = Expect.candidate(Fixtures.scan(dir, "ReadLockWriteBad"), "fixtures.ReadLockWriteBad.version");
    List<HeldLock> locks = version.accesses().get(0).locks();
    assertEquals(1, locks.size());
    assertEquals(LockMode.SHARED, locks.get(0).mode());
    assertEquals("fixtures.ReadLockWriteBad.rw", locks.get(0).id());
  }

  @Test
  void aStampedLocksWriteAndReadStampsAreHeldUntilTheirUnlock() {
    Analysis analysis = Fixtures.scan(dir, "StampedLockOk");
    Expect.noCandidate(analysis, "fixtures.StampedLockOk.version");
    Expect.noCandidate(analysis, "fixtures.StampedLockOk.prices{}");
  }

  @Test
  void writingUnderAStampedLocksReadStampIsNotExclusive() {
    Candidate lookups = Expect.candidate(Fixtures.scan(dir, "StampedReadLockWriteBad"),
        "fixtures.StampedReadLockWriteBad.lookups");
    List<HeldLock> locks = lookups.accesses().get(0).locks();
    assertEquals(1, locks.size());
    assertEquals(LockMode.SHARED, locks.get(0).mode());
    assertEquals("fixtures.StampedReadLockWriteBad.lock", locks.get(0).id());
  }

  @Test
  void aWriteAfterTheFinallyThatUnlockedHoldsNoLock() {
    Candidate state = Expect.candidate(Fixtures.scan(dir, "UnlockedAfterUnlockBad"),
        "fixtures.UnlockedAfterUnlockBad.state");
    List<Access> writes = state.accesses();
    assertEquals(List.of("lock"), writes.get(0).locks().stream().map(HeldLock::display).toList());
    assertEquals(List.of(), writes.get(1).locks());
  }

  @Test
  void twoDifferentLocksDoNotProtect() {
    Candidate status = Expect.candidate(Fixtures.scan(dir, "DifferentLocksBad"), "fixtures.DifferentLocksBad.status");
    Expect.hasReason(status, "under writeLock");
  }

  @Test
  void outerThisInAnInnerClassIsTheOuterMonitor() {
    everySharedAccessLocked("InnerClassOuterThisOk", "fixtures.InnerClassOuterThisOk.ticks");
    Expect.noCandidate(Fixtures.scan(dir, "InnerClassOuterThisOk"), "fixtures.InnerClassOuterThisOk.ticks");
  }

  @Test
  void aMethodAnnotatedGuardedByIsEnteredWithItsLock() {
    everySharedAccessLocked("GuardedByMethodOk", "fixtures.GuardedByMethodOk.pending");
    Expect.noCandidate(Fixtures.scan(dir, "GuardedByMethodOk"), "fixtures.GuardedByMethodOk.pending");
  }

  @Test
  void aLockedReadAndALockedWriteWithACallbackUnderTheLock() {
    everySharedAccessLocked("FP_LockedClockWithCallback", "fixtures.FP_LockedClockWithCallback.time");
    Expect.noCandidate(Fixtures.scan(dir, "FP_LockedClockWithCallback"), "fixtures.FP_LockedClockWithCallback.time");
  }
}
