package dev.racetriage.runner.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.verdicts.Verdict;
import java.util.Collections;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class VerdictClassifierTest {
  private final VerdictClassifier classifier = VerdictClassifier.standard();

  private static List<Long> durations(long from, int n) {
    return LongStream.range(0, n).map(i -> from + i % 3).boxed().toList();
  }

  private static HeuristicTrials sc(int failures) {
    return new HeuristicTrials("sc", 20, 0, failures, 200, 0, durations(100, 20));
  }

  private static HeuristicTrials adversarial(String h, int explained, int unexplained, long stale, List<Long> durations) {
    return new HeuristicTrials(h, 20, explained, unexplained, 200, stale, durations);
  }

  @Test
  void failuresWithStaleReadsAndNoneUnderScAreDestructive() {
    Classification c = classifier.classify(List.of(
        sc(0),
        adversarial("oldest", 0, 0, 40, durations(100, 20)),
        adversarial("oldest-but-different", 17, 0, 60, durations(100, 20))), false);
    assertEquals(Verdict.DESTRUCTIVE, c.verdict());
    assertEquals("oldest-but-different", c.decisiveHeuristic());
    assertEquals("17/20 runs failed under oldest-but-different, 0/20 under sc", c.summary());
    assertEquals("0.85", c.facts().get("oldest-but-different.observationRate"));
  }

  @Test
  void aFailureUnderScIsFlakyWhateverTheOthersDid() {
    Classification c = classifier.classify(List.of(sc(1), adversarial("oldest", 20, 0, 50, durations(100, 20))), false);
    assertEquals(Verdict.FLAKY, c.verdict());
  }

  @Test
  void aFailureWithoutTheAgentIsFlaky() {
    Classification c = classifier.classify(List.of(sc(0), adversarial("oldest", 20, 0, 50, durations(100, 20))), true);
    assertEquals(Verdict.FLAKY, c.verdict());
  }

  @Test
  void failuresWithoutAnyStaleReadCannotBlameTheRace() {
    Classification c = classifier.classify(List.of(sc(0), adversarial("random", 0, 2, 0, durations(100, 20))), false);
    assertEquals(Verdict.FLAKY, c.verdict());
    assertTrue(c.summary().contains("without being served any stale value"), c.summary());
  }

  @Test
  void noStaleValueServedIsUnexercisedNotBenign() {
    Classification c = classifier.classify(List.of(sc(0), adversarial("oldest", 0, 0, 0, durations(100, 20))), false);
    assertEquals(Verdict.UNEXERCISED, c.verdict());
  }

  @Test
  void significantlySlowerRunsWithoutFailuresAreQos() {
    Classification c = classifier.classify(List.of(sc(0), adversarial("oldest", 0, 0, 500, durations(400, 20))), false);
    assertEquals(Verdict.QOS, c.verdict());
    assertEquals("oldest", c.decisiveHeuristic());
  }

  @Test
  void aSmallOrInsignificantSlowdownIsBenign() {
    List<Long> noisy = new java.util.ArrayList<>(durations(100, 20));
    noisy.set(0, 1000L); // one outlier moves neither the median nor the ranks much
    Classification c = classifier.classify(List.of(sc(0), adversarial("oldest", 0, 0, 30, noisy)), false);
    assertEquals(Verdict.BENIGN, c.verdict());
  }

  @Test
  void mannWhitneySeparatesShiftedSamplesAndNotEqualOnes() {
    List<Long> low = durations(100, 20);
    List<Long> high = durations(150, 20);
    assertTrue(MannWhitney.pValueGreater(high, low) < 1e-6);
    assertTrue(MannWhitney.pValueGreater(low, high) > 0.99);
    assertTrue(MannWhitney.pValueGreater(low, low) > 0.4);
    assertEquals(1.0, MannWhitney.pValueGreater(Collections.nCopies(5, 9L), low), "too small to judge");
  }

  @Test
  void normalCdfMatchesKnownValues() {
    assertEquals(0.5, MannWhitney.standardNormalCdf(0), 1e-7);
    assertEquals(0.975002, MannWhitney.standardNormalCdf(1.96), 1e-5);
    assertEquals(0.158655, MannWhitney.standardNormalCdf(-1.0), 1e-5);
  }
}
