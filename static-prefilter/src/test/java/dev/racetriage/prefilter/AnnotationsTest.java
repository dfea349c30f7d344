package dev.racetriage.prefilter;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** @GuardedBy, @ThreadSafe, @NotThreadSafe and @ThreadConfined, matched by simple name. */
class AnnotationsTest {

  @TempDir Path dir;

  @Test
  void guardedByHonouredWhenEveryAccessHoldsTheLock() {
    Expect.noCandidate(Fixtures.scan(dir, "GuardedByLockOk"), "fixtures.GuardedByLockOk.names");
  }

  @Test
  void guardedByNamesAnOuterClassFieldOrAFieldPathAsErrorProneResolvesThem() {
    Analysis analysis = Fixtures.scan(dir, "GuardedByOuterLockOk");
    Expect.noCandidate(analysis, "fixtures.GuardedByOuterLockOk$Node.visits");
    Expect.noCandidate(analysis, "fixtures.GuardedByOuterLockOk$Waiter.waiting");
  }

  @Test
  void guardedByViolationIsACandidateOnTheAnnotationsWord() {
    Candidate value = Expect.candidate(Fixtures.scan(dir, "GuardedByViolatedBad"), "fixtures.GuardedByViolatedBad.value");
    Expect.hasReason(value, "@GuardedBy(\"this\") but written in reset() without lock");
  }

  @Test
  void threadSafeClassMethodsRunConcurrently() {
    Candidate mode = Expect.candidate(Fixtures.scan(dir, "ThreadSafeClassBad"), "fixtures.ThreadSafeClassBad.mode");
    Expect.hasReason(mode, "ThreadSafeClassBad is @ThreadSafe");
  }

  @Test
  void notThreadSafeClassesAreLeftToTheirCallers() {
    assertTrue(Fixtures.scan(dir, "NotThreadSafeOk").candidates().isEmpty());
  }

  @Test
  void threadConfinedFieldsAreNotCandidates() {
    Expect.noCandidate(Fixtures.scan(dir, "ThreadConfinedOk"), "fixtures.ThreadConfinedOk.buffer");
  }
}
