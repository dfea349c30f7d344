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

  /** {@code t} with {@code n} back-to-back confirmation pairs of these durations. */
  private static HeuristicTrials withPairs(HeuristicTrials t, int n, long control, long adversarial) {
    return new HeuristicTrials(t.heuristic(), t.runs(), t.explainedFailures(), t.unexplainedFailures(), t.reads(),
        t.staleReads(), t.durationsMillis(), t.timeouts(),
        java.util.Collections.nCopies(n, new PairedRun(control, adversarial)));
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
    assertEquals("0.85", c.facts().get("oldest-but-different.failureRate"));
  }

  /**
   * A reviewer's optimistic read without validation: one run under {@code random} failed with stale values and one
   * without any, against a clean control. The run without stale values is a failure of the control's kind, so the
   * conviction must be significant against it: 1 of 19 against 1 of 21 is not (flaky), and the evidence no longer
   * reads as though the test only failed with stale values. Ten failures with them against that one are.
   */
  @Test
  void aHeuristicsFailureWithoutStaleValuesBesideOneWithThemCountsAsTheControls() {
    Classification weak = classifier.classify(List.of(sc(0), adversarial("random", 1, 1, 40, durations(100, 20))),
        false);
    assertEquals(Verdict.FLAKY, weak.verdict(), weak.summary());
    assertEquals("1/21 runs failed under sc or without a stale value served, where every read returns the latest"
        + " value; 1/19 with stale values under random, not significantly more often (Fisher p = 0.73)",
        weak.summary());
    assertEquals("1 under random failed without being served any stale value: counted among the control's",
        weak.facts().get("unexplainedFailures"));
    assertEquals("2", weak.facts().get("random.failures"), "the facts keep the raw counts");

    Classification strong = classifier.classify(List.of(sc(0), adversarial("random", 10, 1, 40, durations(100, 20))),
        false);
    assertEquals(Verdict.DESTRUCTIVE, strong.verdict(), strong.summary());
    assertTrue(strong.summary().startsWith("10/19 runs failed under random, 1/21 under sc or without a stale value"
        + " served: the stale values make the test fail more often than the control (Fisher p = "), strong.summary());
  }

  /**
   * A reviewer's lost update: the agent slows the racy increment enough that the control fails a third of the time,
   * and every heuristic fails every run. No heuristic alone is significant at 0.01 / 4 (oldest 8 of 8 against 3 of 9:
   * p = 0.007), all of them together are (23 of 23: p = 0.0001): destructive, not flaky.
   */
  @Test
  void heuristicsThatTogetherFailSignificantlyMoreOftenThanAFailingControlAreDestructive() {
    Classification c = classifier.classify(lostUpdate(5), false);
    assertEquals(Verdict.DESTRUCTIVE, c.verdict(), c.summary());
    assertTrue(c.summary().startsWith("23/23 runs failed under the adversarial heuristics together (oldest 8/8,"
        + " oldest-but-different 5/5, random 5/5, random-but-different 5/5), 3/9 under sc: the stale values make the"
        + " test fail more often than the control (Fisher p = 9.3e-05)"), c.summary());
    // the same rates under one heuristic alone: 8 of 8 against 3 of 9 is p = 0.007, above 0.01 / 4 only with four
    Classification alone = classifier.classify(lostUpdate(1), false);
    assertEquals(Verdict.FLAKY, alone.verdict(), alone.summary());
  }

  /** The control 3 of 9, {@code oldest} 8 of 8, and the other three heuristics {@code others} of 5 each. */
  private static List<HeuristicTrials> lostUpdate(int others) {
    return List.of(new HeuristicTrials("sc", 9, 0, 3, 90, 0, durations(100, 9)),
        new HeuristicTrials("oldest", 8, 8, 0, 80, 30, durations(100, 8)),
        new HeuristicTrials("oldest-but-different", 5, others, 0, 50, 20, durations(100, 5)),
        new HeuristicTrials("random", 5, others, 0, 50, 20, durations(100, 5)),
        new HeuristicTrials("random-but-different", 5, others, 0, 50, 20, durations(100, 5)));
  }

  @Test
  void aFailureUnderScIsFlakyUnlessAHeuristicFailsSignificantlyMoreOften() {
    // 3 of 3 against 1 of 3: Fisher p = 0.5, nothing to tell the race from the test's own intermittence
    Classification few = classifier.classify(List.of(
        new HeuristicTrials("sc", 3, 0, 1, 30, 0, durations(100, 3)),
        new HeuristicTrials("oldest", 3, 3, 0, 30, 9, durations(100, 3))), false);
    assertEquals(Verdict.FLAKY, few.verdict());
    assertEquals("1/3 runs failed under sc, where every read returns the latest value; 3/3 with stale values under"
        + " oldest, not significantly more often (Fisher p = 0.20)", few.summary());
    // 10 of 10 against 1 of 10: p = 6e-5 < 0.01 (one heuristic compared)
    Classification many = classifier.classify(List.of(
        new HeuristicTrials("sc", 10, 0, 1, 100, 0, durations(100, 10)),
        new HeuristicTrials("oldest", 10, 10, 0, 100, 30, durations(100, 10))), false);
    assertEquals(Verdict.DESTRUCTIVE, many.verdict());
    assertEquals("oldest", many.decisiveHeuristic());
    assertEquals("10/10 runs failed under oldest, 1/10 under sc: the stale values make the test fail more often than"
        + " the control (Fisher p = 6.0e-05)", many.summary());
  }

  /**
   * A reviewer's held-out test fails about one run in five on its own (a clock check); its race only changes a
   * message. The control passed its 3 runs, the heuristic failed 3 of 6: without the baseline's runs that would be
   * destructive, with them (1 of 2 failed without the agent) it is not significant, and the race is flaky.
   */
  @Test
  void runsWithoutTheAgentOfAnIntermittentTestCountAsControlRuns() {
    List<HeuristicTrials> trials = List.of(
        new HeuristicTrials("sc", 3, 0, 0, 30, 0, durations(100, 3)),
        new HeuristicTrials("random", 6, 3, 0, 60, 12, durations(100, 6)));
    assertEquals(Verdict.DESTRUCTIVE, classifier.classify(trials, false).verdict());
    Classification c = classifier.classify(trials, false, 1, 2);
    assertEquals(Verdict.FLAKY, c.verdict());
    assertEquals("1/5 runs failed under sc and without the agent, where every read returns the latest value, and no"
        + " heuristic made it fail significantly more often; 3/6 with stale values under random, not significantly more"
        + " often (Fisher p = 0.35)", c.summary());
    assertEquals("1 of 2 runs without the agent failed, counted among the control's", c.facts().get("sc.withoutAgent"));
    assertEquals("1", c.facts().get("sc.failures"));
    // no heuristic's run failed: nothing to attribute, the race is tried like any other
    assertEquals(Verdict.BENIGN, classifier.classify(List.of(
        new HeuristicTrials("sc", 7, 0, 0, 70, 0, durations(100, 7)),
        new HeuristicTrials("random", 19, 0, 0, 190, 40, durations(100, 19))), false, 1, 2).verdict());
    // a race that makes it fail every run is still destructive, by the Fisher comparison
    Classification destructive = classifier.classify(List.of(
        new HeuristicTrials("sc", 12, 0, 0, 120, 0, durations(100, 12)),
        new HeuristicTrials("oldest", 12, 12, 0, 120, 40, durations(100, 12))), false, 1, 2);
    assertEquals(Verdict.DESTRUCTIVE, destructive.verdict());
    assertTrue(destructive.summary().startsWith("12/12 runs failed under oldest, 1/14 under sc and without the agent:"),
        destructive.summary());
  }

  @Test
  void theFisherThresholdIsCorrectedForTheHeuristicsCompared() {
    // 8 of 8 against 1 of 8: p = 7.0e-4, below 0.01 / 1 and 0.01 / 4, not below 0.01 / 20
    HeuristicTrials sc = new HeuristicTrials("sc", 8, 0, 1, 80, 0, durations(100, 8));
    HeuristicTrials oldest = new HeuristicTrials("oldest", 8, 8, 0, 80, 20, durations(100, 8));
    assertEquals(Verdict.DESTRUCTIVE, classifier.classify(List.of(sc, oldest), false).verdict());
    assertTrue(classifier.failsMoreOftenThanControl(8, 8, 1, 8, 4));
    assertTrue(!classifier.failsMoreOftenThanControl(8, 8, 1, 8, 20));
    // as often as the control, or failures without stale values only: no evidence against the race
    assertTrue(!classifier.failsMoreOftenThanControl(2, 20, 2, 20, 1));
    assertTrue(!classifier.failsMoreOftenThanControl(0, 20, 1, 20, 1));
    Classification unexplainedOnly = classifier.classify(List.of(sc(1),
        adversarial("oldest", 0, 20, 0, durations(100, 20))), false);
    assertEquals(Verdict.FLAKY, unexplainedOnly.verdict());
  }

  @Test
  void fishersTailMatchesTheHypergeometricByHand() {
    // 5 of 5 against 1 of 5: P(X >= 5) = C(6,5) C(4,0) / C(10,5) = 6 / 252
    assertEquals(6.0 / 252, FisherExact.pValueGreater(5, 5, 1, 5), 1e-12);
    // 2 of 4 against 2 of 4: P(X >= 2) = (C(4,2)C(4,2) + C(4,3)C(4,1) + C(4,4)C(4,0)) / C(8,4) = (36 + 16 + 1) / 70
    assertEquals(53.0 / 70, FisherExact.pValueGreater(2, 4, 2, 4), 1e-12);
    assertEquals(1.0, FisherExact.pValueGreater(0, 7, 3, 9), 1e-12);
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

  /**
   * One failure without a stale value, not repeated (commons-pool's timing-sensitive test, once in 47 runs): noted and
   * not counted — the write-write race no read sees stays unexercised, and an exercised race keeps its verdict.
   */
  @Test
  void aSingleFailureWithoutAnyStaleReadIsNotedNotCounted() {
    Classification unexercised = classifier.classify(List.of(sc(0), adversarial("random", 0, 1, 0, durations(100, 20)),
        adversarial("oldest", 0, 0, 0, durations(100, 20))), false);
    assertEquals(Verdict.UNEXERCISED, unexercised.verdict());
    assertTrue(unexercised.summary().contains("1 run under random failed without being served any stale value: not "
        + "counted"), unexercised.summary());
    assertTrue(unexercised.facts().containsKey("unexplainedFailure"), unexercised.facts().toString());
    Classification benign = classifier.classify(List.of(sc(0), adversarial("random", 0, 1, 30, durations(100, 20)),
        adversarial("oldest", 0, 0, 50, durations(100, 20))), false);
    assertEquals(Verdict.BENIGN, benign.verdict());
    assertTrue(benign.summary().contains("not counted"), benign.summary());
    // two of them, under any heuristics: a test that fails on its own
    Classification twice = classifier.classify(List.of(sc(0), adversarial("random", 0, 1, 30, durations(100, 20)),
        adversarial("oldest", 0, 1, 50, durations(100, 20))), false);
    assertEquals(Verdict.FLAKY, twice.verdict());
    assertTrue(twice.summary().startsWith("2 run(s) under random, oldest failed without"), twice.summary());
  }

  @Test
  void noStaleValueServedIsUnexercisedNotBenign() {
    Classification c = classifier.classify(List.of(sc(0), adversarial("oldest", 0, 0, 0, durations(100, 20))), false);
    assertEquals(Verdict.UNEXERCISED, c.verdict());
  }

  @Test
  void significantlySlowerRunsWithoutFailuresAreQos() {
    Classification c = classifier.classify(List.of(sc(0),
        withPairs(adversarial("oldest", 0, 0, 500, durations(400, 20)), 10, 100, 400)), false);
    assertEquals(Verdict.QOS, c.verdict());
    assertEquals("oldest", c.decisiveHeuristic());
    assertTrue(c.summary().endsWith("confirmed in 10 back-to-back pair(s) with sc: median 4.00x, +300 ms, Wilcoxon p ="
        + " 0.00098"), c.summary());
  }

  /**
   * The screening alone is what a loaded machine can fool: a benign race whose adversarial runs happened to run while
   * the machine was busier is slower by every measure of the runs as a whole, but not in pairs made back to back.
   */
  @Test
  void aSlowdownThatTheBackToBackPairsDoNotShowIsBenignAndTheEvidenceSaysWhy() {
    HeuristicTrials looksSlow = adversarial("oldest", 0, 0, 500, durations(400, 20));
    Classification c = classifier.classify(List.of(sc(0), withPairs(looksSlow, 10, 400, 410)), false);
    assertEquals(Verdict.BENIGN, c.verdict(), c.summary());
    assertEquals("oldest looked 4.0x slower than sc in median, but not in 10 back-to-back pair(s) with sc: median"
        + " 1.03x, +10 ms, Wilcoxon p = 0.00098 (the machine's load, not the race)", c.facts().get("slowdownNotConfirmed"));
    Classification unconfirmed = classifier.classify(List.of(sc(0), looksSlow), false);
    assertEquals(Verdict.BENIGN, unconfirmed.verdict(), "no qos without pairs: " + unconfirmed.summary());
    assertTrue(unconfirmed.summary().contains("no back-to-back pairs confirmed it"), unconfirmed.summary());
    assertEquals(Verdict.QOS, classifier.classify(List.of(sc(0), withPairs(looksSlow, 10, 100, 400)), false).verdict());
    assertEquals(Verdict.BENIGN, classifier.classify(List.of(sc(0), withPairs(looksSlow, 9, 100, 400)), false).verdict(),
        "fewer pairs than a confirmation makes confirm nothing");
  }

  @Test
  void pairsAreJudgedOnTheirMedianRatioFloorAndAnExactSignedRankTest() {
    PairedSlowdown paired = classifier.paired();
    List<PairedRun> oneReversed = new java.util.ArrayList<>(java.util.Collections.nCopies(9, new PairedRun(100, 300)));
    oneReversed.add(new PairedRun(101, 100)); // the smallest difference the other way
    assertEquals(2 / 1024.0, WilcoxonSignedRank.pValueGreater(oneReversed.stream()
        .map(p -> Math.log(p.adversarialMillis() / (double) p.controlMillis())).toList()), 1e-12);
    assertTrue(paired.confirms(oneReversed, 4), "p = 2/1024 < 0.01 / 4");
    List<PairedRun> twoReversed = new java.util.ArrayList<>(oneReversed);
    twoReversed.set(0, new PairedRun(102, 100));
    assertTrue(!paired.confirms(twoReversed, 4) && paired.confirms(twoReversed, 1), "p = 4/1024: only one comparison");
    assertEquals(0.75, WilcoxonSignedRank.pValueGreater(List.of(1.0, -1.0)), 1e-12,
        "tied ranks share mid-rank 1.5: of the four sign patterns, three give a positive sum of at least 1.5");
    // six pairs not slow out of ten decide already: the median cannot reach 1.5x
    List<PairedRun> six = java.util.Collections.nCopies(6, new PairedRun(100, 110));
    assertTrue(paired.refutes(six, 4) && paired.decided(six, 4));
    assertTrue(!paired.decided(six.subList(0, 5), 4), "five of ten: the other five could still carry the median");
    assertTrue(paired.refutes(java.util.Collections.nCopies(6, new PairedRun(1, 5)), 4), "5x, but 4 ms: under the floor");
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

  /** The case: one adversarial run killed at 30 s on a loaded machine among passes with stale values. */
  @Test
  void oneAdversarialTimeoutAmongPassesIsNeitherFlakyNorQos() {
    List<Long> withTimeout = new java.util.ArrayList<>(durations(100, 19));
    withTimeout.add(30_000L);
    Classification c = classifier.classify(List.of(sc(0),
        new HeuristicTrials("random", 20, 0, 0, 200, 40, withTimeout, 1)), false);
    assertEquals(Verdict.BENIGN, c.verdict(), c.summary());
    assertEquals("1", c.facts().get("random.timeouts"));
  }

  @Test
  void aHeuristicThatTimesOutWhereScDoesNotIsQosEvenWithoutStaleCounts() {
    Classification c = classifier.classify(List.of(sc(0),
        withPairs(new HeuristicTrials("oldest", 10, 0, 0, 0, 0, java.util.Collections.nCopies(10, 10_500L), 10), 10,
            100, 10_500)), false);
    assertEquals(Verdict.QOS, c.verdict(), "not unexercised: the killed runs' stale values died with their JVMs");
    assertEquals("oldest", c.decisiveHeuristic());
  }

  @Test
  void scTimeoutsMakeTheRaceFlakyOnlyWhenTheControlKeepsTimingOut() {
    HeuristicTrials oldest = adversarial("oldest", 0, 0, 40, durations(100, 20));
    HeuristicTrials noisy = new HeuristicTrials("sc", 20, 0, 0, 200, 0, durations(100, 20), 2);
    assertEquals(Verdict.BENIGN, classifier.classify(List.of(noisy, oldest), false).verdict());
    HeuristicTrials hanging = new HeuristicTrials("sc", 2, 0, 0, 20, 0, durations(100, 2), 3);
    Classification c = classifier.classify(List.of(hanging, oldest), false);
    assertEquals(Verdict.FLAKY, c.verdict());
    assertEquals("3 of 5 runs under sc timed out, where every read returns the latest value: the test does not "
        + "finish reliably on its own", c.summary());
    assertTrue(VerdictClassifier.controlKeepsTimingOut(3, 3));
    assertTrue(!VerdictClassifier.controlKeepsTimingOut(3, 4) && !VerdictClassifier.controlKeepsTimingOut(2, 0));
  }

  @Test
  void theSignificanceLevelIsSharedByTheHeuristicsComparedWithSc() {
    List<Long> scRuns = List.of(100L, 104L, 108L, 112L, 116L, 120L, 124L, 128L, 132L, 136L);
    List<Long> slower = List.of(106L, 122L, 170L, 175L, 180L, 185L, 190L, 195L, 200L, 130L); // median 1.5x
    double p = MannWhitney.pValueGreater(slower, scRuns);
    assertTrue(p > 0.01 / 4 && p < 0.01, "the data sit between the corrected and the uncorrected level: p = " + p);
    HeuristicTrials sc = new HeuristicTrials("sc", 10, 0, 0, 100, 0, scRuns);
    HeuristicTrials oldest = withPairs(new HeuristicTrials("oldest", 10, 0, 0, 100, 50, slower), 10, 100, 200);
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
