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
  void aSlowdownOfAMillisecondOrTwoIsNotEvidenceHoweverConsistent() {
    // a 1 ms test taking 2-3 ms under a heuristic: 2.5x and perfectly separated, but within scheduling noise
    HeuristicTrials fastSc = new HeuristicTrials("sc", 20, 0, 0, 200, 0, durations(1, 20));
    Classification c = classifier.classify(List.of(fastSc, adversarial("oldest", 0, 0, 300, durations(3, 20))), false);
    assertEquals(Verdict.BENIGN, c.verdict(), c.summary());
    assertTrue(MannWhitney.pValueGreater(durations(3, 20), durations(1, 20)) < 1e-6, "the ranks alone would say qos");
  }

  @Test
  void theSignificanceLevelIsSharedByTheHeuristicsComparedWithSc() {
    List<Long> scRuns = List.of(100L, 104L, 108L, 112L, 116L, 120L, 124L, 128L, 132L, 136L);
    List<Long> slower = List.of(106L, 122L, 170L, 175L, 180L, 185L, 190L, 195L, 200L, 130L); // median 1.5x
    double p = MannWhitney.pValueGreater(slower, scRuns);
    assertTrue(p > 0.01 / 4 && p < 0.01, "the data sit between the corrected and the uncorrected level: p = " + p);
    HeuristicTrials sc = new HeuristicTrials("sc", 10, 0, 0, 100, 0, scRuns);
    HeuristicTrials oldest = new HeuristicTrials("oldest", 10, 0, 0, 100, 50, slower);
    assertEquals(Verdict.QOS, classifier.classify(List.of(sc, oldest), false).verdict(), "one comparison");
    List<HeuristicTrials> four = List.of(sc, oldest,
        new HeuristicTrials("oldest-but-different", 10, 0, 0, 100, 50, scRuns),
        new HeuristicTrials("random", 10, 0, 0, 100, 50, scRuns),
        new HeuristicTrials("random-but-different", 10, 0, 0, 100, 50, scRuns));
    assertEquals(Verdict.BENIGN, classifier.classify(four, false).verdict(), "four comparisons: p must be < 0.0025");
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
