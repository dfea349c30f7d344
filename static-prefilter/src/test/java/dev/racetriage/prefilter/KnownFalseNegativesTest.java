package dev.racetriage.prefilter;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.prefilter.facts.Access;
import dev.racetriage.prefilter.facts.FileFacts;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RacerD-style FN_ fixtures: real races the prefilter misses today, each by a limit docs/architecture.md names.
 * Each test checks the racy accesses are collected (the miss is the rule's, not the parser's) and that no candidate
 * is reported. When a limit is lifted its test fails: turn the fixture into a {@code ...Bad} one.
 */
class KnownFalseNegativesTest {

  @TempDir Path dir;

  private void missed(String fixture, String fieldKey) {
    FileFacts facts = Fixtures.facts(dir.resolve("facts"), fixture);
    assertTrue(facts.accesses().stream().filter(a -> a.fieldKey().equals(fieldKey)).anyMatch(Access::isWrite),
        "the writes of " + fieldKey + " should be collected; accesses: " + facts.accesses());
    Expect.noCandidate(Fixtures.scan(dir.resolve("scan"), fixture), fieldKey);
  }

  @Test
  void volatileFieldsAreNeverCandidatesSoAVolatileIncrementIsMissed() {
    // volatile accesses are kept only as ordering points, not as accesses of a field that could race
    FileFacts facts = Fixtures.facts(dir.resolve("facts"), "FN_VolatileIncrement");
    assertTrue(facts.fields().stream().anyMatch(f -> f.key().equals("fixtures.FN_VolatileIncrement.hits")
        && f.isVolatile()), "hits should be declared volatile: " + facts.fields());
    Expect.noCandidate(Fixtures.scan(dir.resolve("scan"), "FN_VolatileIncrement"),
        "fixtures.FN_VolatileIncrement.hits");
  }

  @Test
  void aFieldOfAnotherInstanceUnderThisMonitorLooksLocked() {
    missed("FN_LockOfAnotherInstance", "fixtures.FN_LockOfAnotherInstance.balance");
  }

  @Test
  void methodReferencesKeptInACollectionAndStartedElsewhereAreNotThreadEntries() {
    missed("FN_TaskStoredInCollection", "fixtures.FN_TaskStoredInCollection.steps");
  }

  @Test
  void aVirtualCallReachesOnlyTheDeclaredMethodNotTheOverride() {
    missed("FN_VirtualCallToOverride", "fixtures.FN_VirtualCallToOverride$Counter.done");
  }
}
