package dev.racetriage.prefilter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.prefilter.facts.PatternHit;
import dev.racetriage.prefilter.facts.RacePattern;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The named patterns, each with its fix, and the shapes that only look like them. */
class PatternsTest {

  @TempDir Path dir;

  @Test
  void doubleCheckedLockingWithoutVolatile() {
    Candidate helper = Expect.candidate(Fixtures.scan(dir, "DoubleCheckedLockingBad"),
        "fixtures.DoubleCheckedLockingBad.helper");
    Expect.hasPattern(helper, RacePattern.DOUBLE_CHECKED_LOCKING);
    PatternHit hit = helper.patterns().get(0);
    assertEquals(8, hit.line());
    assertTrue(hit.pattern().fix().contains("volatile"));
  }

  @Test
  void doubleCheckedLockingOnAVolatileFieldIsFine() {
    assertTrue(Fixtures.scan(dir, "DoubleCheckedLockingVolatileOk").candidates().isEmpty());
  }

  @Test
  void checkThenActDoubleRead() {
    Candidate listener = Expect.candidate(Fixtures.scan(dir, "CheckThenActBad"), "fixtures.CheckThenActBad.listener");
    Expect.hasPattern(listener, RacePattern.CHECK_THEN_ACT);
    assertTrue(RacePattern.CHECK_THEN_ACT.fix().contains("local"));
  }

  @Test
  void aLocalCopyIsNotCheckThenAct() {
    Candidate listener = Expect.candidate(Fixtures.scan(dir, "FP_LocalCopyIsNotCheckThenAct"),
        "fixtures.FP_LocalCopyIsNotCheckThenAct.listener");
    Expect.lacksPattern(listener, RacePattern.CHECK_THEN_ACT);
  }

  @Test
  void racyLazyInitialisationOfAnObjectRanksAboveABenignHashCache() {
    Analysis analysis = Fixtures.scan(dir, "RacyLazyInitBad", "RacyHashCacheBad");
    Candidate cache = Expect.candidate(analysis, "fixtures.RacyLazyInitBad.cache");
    Candidate hash = Expect.candidate(analysis, "fixtures.RacyHashCacheBad.hash");
    Expect.hasPattern(cache, RacePattern.RACY_LAZY_INIT);
    Expect.hasPattern(hash, RacePattern.RACY_LAZY_INIT);
    Expect.hasReason(hash, "often a benign cache");
    Expect.hasReason(cache, "may see it half-built");
    assertTrue(cache.confidence() > hash.confidence(), cache.confidence() + " vs " + hash.confidence());
  }

  @Test
  void busyWaitOnAPlainFlag() {
    Candidate done = Expect.candidate(Fixtures.scan(dir, "BusyWaitBad"), "fixtures.BusyWaitBad.done");
    Expect.hasPattern(done, RacePattern.BUSY_WAIT);
    Expect.hasReason(done, "busy-wait loop on a plain field");
  }

  @Test
  void busyWaitOnAVolatileFlagIsFine() {
    assertTrue(Fixtures.scan(dir, "BusyWaitVolatileOk").candidates().isEmpty());
  }

  @Test
  void lazyInitialisationInASynchronizedGetterIsFine() {
    Expect.noCandidate(Fixtures.scan(dir, "RacyLazyInitSynchronizedOk"), "fixtures.RacyLazyInitSynchronizedOk.cache");
  }

  @Test
  void aLoopOverASizeFieldIsNotABusyWait() {
    Candidate size = Expect.candidate(Fixtures.scan(dir, "FP_LoopOverSizeIsNotBusyWait"),
        "fixtures.FP_LoopOverSizeIsNotBusyWait.size");
    Expect.lacksPattern(size, RacePattern.BUSY_WAIT);
  }

  @Test
  void lossyCounterInEverySpelling() {
    Analysis analysis = Fixtures.scan(dir, "LossyCounterVariantsBad");
    for (String field : new String[] {"postfix", "compound", "spelledOut"}) {
      Candidate counter = Expect.candidate(analysis, "fixtures.LossyCounterVariantsBad." + field);
      Expect.hasPattern(counter, RacePattern.LOSSY_COUNTER);
      Expect.hasReason(counter, "on several threads at once");
    }
  }
}
