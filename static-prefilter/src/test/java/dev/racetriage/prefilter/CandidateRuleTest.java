package dev.racetriage.prefilter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.prefilter.facts.AccessKind;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The candidate rule (written outside initialisation, several threads, no common lock) and its classic traps. */
class CandidateRuleTest {

  @TempDir Path dir;

  @Test
  void unlockedCounterIncrementedByTwoThreadsIsACandidate() {
    Analysis analysis = Fixtures.scan(dir, "LossyCounterBad");
    Candidate count = Expect.candidate(analysis, "fixtures.LossyCounterBad.count");
    Expect.hasReason(count, "written in lambda at LossyCounterBad.java:8 without lock");
    Expect.hasReason(count, "runs on thread entries");
    assertEquals(3, count.accesses().size());
    assertTrue(count.accesses().stream().filter(a -> a.kind() == AccessKind.WRITE)
        .allMatch(a -> a.locks().isEmpty() && !a.initialisation()));
    assertEquals(Fixtures.fileOf(dir, "LossyCounterBad").toString(), count.file());
    assertEquals(5, count.line());
  }

  @Test
  void synchronizedCounterpartIsNot() {
    Analysis analysis = Fixtures.scan(dir, "SynchronizedCounterOk");
    Expect.noCandidate(analysis, "fixtures.SynchronizedCounterOk.count");
  }

  @Test
  void inconsistentSynchronisationIsACandidateEvenWithoutAThreadStart() {
    Candidate name = Expect.candidate(Fixtures.scan(dir, "InconsistentSyncBad"), "fixtures.InconsistentSyncBad.name");
    Expect.hasReason(name, "written in set() without lock");
    Expect.hasReason(name, "read in get() under this");
    Expect.hasReason(name, "inconsistent synchronisation: 1 of 2 accesses hold a lock");
  }

  @Test
  void fieldsWrittenOnlyInTheConstructorAreNotCandidates() {
    Analysis analysis = Fixtures.scan(dir, "FP_ConstructorOnlyWrites");
    Expect.noCandidate(analysis, "fixtures.FP_ConstructorOnlyWrites.name");
    Expect.noCandidate(analysis, "fixtures.FP_ConstructorOnlyWrites.limit");
  }

  @Test
  void finalAtomicsAreNotCandidates() {
    assertTrue(Fixtures.scan(dir, "FP_FinalAtomicCounter").candidates().isEmpty());
  }

  @Test
  void stateOnlyItsOwnRunMethodTouchesIsThreadConfined() {
    Expect.noCandidate(Fixtures.scan(dir, "FP_RunnableOwnState"), "fixtures.FP_RunnableOwnState.iterations");
  }

  @Test
  void noThreadAndNoLockMeansNoCandidate() {
    assertTrue(Fixtures.scan(dir, "FP_PlainPojoNoThreads").candidates().isEmpty());
  }

  @Test
  void aLambdaRunByForEachInsideASynchronizedMethodHoldsItsLock() {
    Expect.noCandidate(Fixtures.scan(dir, "FP_ForEachUnderLock"), "fixtures.FP_ForEachUnderLock.total");
  }

  @Test
  void aVolatileFlagOrdersTheResultItPublishes() {
    Expect.noCandidate(Fixtures.scan(dir, "FP_VolatileFlagPublishesResult"),
        "fixtures.FP_VolatileFlagPublishesResult.result");
  }

  @Test
  void threadsInAnotherFileMakeAPlainClassShared() {
    Analysis analysis = Fixtures.scan(dir, "SharedStats", "StatsDriver");
    Candidate total = Expect.candidate(analysis, "fixtures.SharedStats.total");
    Expect.hasReason(total, "on several threads at once");
    assertTrue(analysis.touching(Fixtures.fileOf(dir, "SharedStats")).contains(total));
  }

  @Test
  void nestedAndAnonymousClassesGetBinaryNameKeys() {
    Analysis analysis = Fixtures.scan(dir, "NestedWorkerBad");
    Expect.candidate(analysis, "fixtures.NestedWorkerBad$Worker.stop");
    Expect.candidate(analysis, "fixtures.NestedWorkerBad$1.runs");
  }

  @Test
  void writesBeforeTheThreadIsCreatedAndReadsAfterJoinAreOrdered() {
    Analysis analysis = Fixtures.scan(dir, "FP_ForkJoinOrdered");
    Expect.noCandidate(analysis, "fixtures.FP_ForkJoinOrdered.data");
    Expect.noCandidate(analysis, "fixtures.FP_ForkJoinOrdered.sum");
  }

  @Test
  void aReadWithoutJoinIsNotOrdered() {
    Candidate sum = Expect.candidate(Fixtures.scan(dir, "ForkWithoutJoinBad"), "fixtures.ForkWithoutJoinBad.sum");
    Expect.hasReason(sum, "read in compute() without lock");
  }

  @Test
  void aWriteInTheLoopThatStartsThreadsIsNotOrderedWithThem() {
    Expect.candidate(Fixtures.scan(dir, "ForkInLoopBad"), "fixtures.ForkInLoopBad.current");
  }

  @Test
  void anUnlockedGetterIsACandidateWithLowerConfidence() {
    Analysis analysis = Fixtures.scan(dir, "UnsyncGetterBad", "InconsistentSyncBad");
    Candidate level = Expect.candidate(analysis, "fixtures.UnsyncGetterBad.level");
    Expect.hasReason(level, "the only unlocked accesses are reads in getters");
    Expect.hasReason(level, "inconsistent synchronisation: 3 of 4 accesses hold a lock");
    Candidate setter = Expect.candidate(analysis, "fixtures.InconsistentSyncBad.name");
    assertTrue(level.confidence() < setter.confidence(), level.confidence() + " vs " + setter.confidence());
  }

  @Test
  void aLambdaPassedToAHelperThatStartsThreadsIsAThreadEntry() {
    Analysis analysis = Fixtures.scan(dir, "HelperStartsThreadsBad");
    Candidate hits = Expect.candidate(analysis, "fixtures.HelperStartsThreadsBad.hits");
    Expect.hasReason(hits, "on several threads at once");
    Expect.hasPattern(hits, dev.racetriage.prefilter.facts.RacePattern.LOSSY_COUNTER);
    // written before the task is created, read by the task only: ordered by the fork
    Expect.noCandidate(analysis, "fixtures.HelperStartsThreadsBad.setup");
  }

  @Test
  void arrayElementsAreKeyedLikeTheAgentKeysThem() {
    Analysis analysis = Fixtures.scan(dir, "ArraySlotsBad", "ArraySlotsLockedOk");
    Candidate slots = Expect.candidate(analysis, "fixtures.ArraySlotsBad.slots[]");
    Expect.hasPattern(slots, dev.racetriage.prefilter.facts.RacePattern.LOSSY_COUNTER);
    assertEquals(7, slots.line());
    Expect.noCandidate(analysis, "fixtures.ArraySlotsBad.slots");
    Expect.noCandidate(analysis, "fixtures.ArraySlotsLockedOk.totals[]");
  }

  @Test
  void aStaticFieldOfAPoolTaskIsSharedByItsThreads() {
    Candidate created = Expect.candidate(Fixtures.scan(dir, "StaticCounterBad"), "fixtures.StaticCounterBad.created");
    Expect.hasReason(created, "on several threads at once");
  }

  @Test
  void anObjectPublishedThroughARacyReferenceShowsItsConstructorWrites() {
    Analysis analysis = Fixtures.scan(dir, "UnsafePublicationBad");
    Expect.candidate(analysis, "fixtures.UnsafePublicationBad.config");
    Expect.hasReason(Expect.candidate(analysis, "fixtures.UnsafePublicationBad$Config.size"),
        "published unsafely through the racy field fixtures.UnsafePublicationBad.config");
  }
}
