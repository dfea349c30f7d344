package dev.racetriage.runner.trial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.runner.verdict.Classification;
import dev.racetriage.runner.verdict.HeuristicTrials;
import dev.racetriage.runner.verdict.VerdictClassifier;
import dev.racetriage.store.verdicts.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Scheduling and early stopping, with trials decided by a table instead of a JVM: the JVM side is covered by the
 * runner's integration tests; here the question is only when runs stop and how evidence is folded.
 */
class TrialSchedulerTest {
  /** Decides each trial's outcome from its heuristic, like a program whose race shows under some heuristics. */
  private static TrialExecutor byHeuristic(Map<String, TrialOutcome.Result> results, Map<String, Long> stale) {
    return byHeuristic(results, stale, Map.of());
  }

  private static TrialExecutor byHeuristic(Map<String, TrialOutcome.Result> results, Map<String, Long> stale,
      Map<String, Long> millis) {
    return spec -> new TrialOutcome(spec, results.get(spec.heuristic()), millis.getOrDefault(spec.heuristic(), 10L),
        100, stale.get(spec.heuristic()),
        results.get(spec.heuristic()) == TrialOutcome.Result.PASS ? null : "java.lang.NullPointerException", "java …");
  }

  private static List<TrialCell> cells(String... heuristics) {
    return cellsOf("[engine:junit-jupiter]/[class:demo.CTest]/[method:t()]", heuristics);
  }

  private static List<TrialCell> cellsOf(String testId, String... heuristics) {
    List<TrialCell> cells = new ArrayList<>();
    for (String h : heuristics) cells.add(new TrialCell("demo.C.x", testId, "demo.CTest#" + testId.hashCode(), h));
    return cells;
  }

  private static Map<String, Long> runs(List<TrialOutcome> outcomes) {
    return outcomes.stream().collect(Collectors.groupingBy(o -> o.spec().heuristic(), Collectors.counting()));
  }

  @Test
  void aConvictingHeuristicEndsTheFieldOnceScHasThreeCleanRuns() throws Exception {
    TrialExecutor executor = byHeuristic(
        Map.of("sc", TrialOutcome.Result.PASS, "oldest-but-different", TrialOutcome.Result.FAIL, "oldest", TrialOutcome.Result.PASS),
        Map.of("sc", 0L, "oldest-but-different", 4L, "oldest", 1L));
    List<TrialOutcome> seen = Collections.synchronizedList(new ArrayList<>());

    List<TrialOutcome> outcomes = new TrialScheduler(executor, StoppingRule.standard(20), 2, null)
        .run(cells("sc", "oldest-but-different", "oldest"), seen::add);

    // obd's first failure (with stale values, sc clean) focuses the unit on it: oldest, after it in the round, never
    // runs; the third obd failure (after sc's third run) decides the field
    assertEquals(Map.of("sc", 3L, "oldest-but-different", 3L), runs(outcomes));
    assertEquals(List.of("sc", "oldest-but-different", "sc", "oldest-but-different"),
        outcomes.subList(0, 4).stream().map(o -> o.spec().heuristic()).toList(), "control and convicting heuristic alternate");
    assertEquals(outcomes.size(), seen.size());

    List<HeuristicTrials> evidence = TrialEvidence.byHeuristic(outcomes);
    assertEquals("sc", evidence.get(0).heuristic(), "the control comes first");
    HeuristicTrials obd = evidence.stream().filter(t -> t.heuristic().equals("oldest-but-different")).findFirst().orElseThrow();
    assertEquals(3, obd.explainedFailures());
    assertEquals(0, obd.unexplainedFailures());
    assertEquals("java.lang.NullPointerException", TrialEvidence.firstFailure(outcomes, "oldest-but-different").failure());
  }

  @Test
  void withoutEarlyStoppingEveryHeuristicRunsInFull() throws Exception {
    TrialExecutor executor = byHeuristic(
        Map.of("sc", TrialOutcome.Result.PASS, "oldest-but-different", TrialOutcome.Result.FAIL, "oldest", TrialOutcome.Result.PASS),
        Map.of("sc", 0L, "oldest-but-different", 4L, "oldest", 0L));
    List<TrialOutcome> outcomes = new TrialScheduler(executor, StoppingRule.exhaustive(7), 2, null)
        .run(cells("sc", "oldest-but-different", "oldest"), o -> {});
    assertEquals(Map.of("sc", 7L, "oldest-but-different", 7L, "oldest", 7L), runs(outcomes));
  }

  @Test
  void anUnexercisedHeuristicStopsAfterFiveRunsAndScStopsWithTheLastAdversary() throws Exception {
    TrialExecutor executor = byHeuristic(Map.of("sc", TrialOutcome.Result.PASS, "oldest", TrialOutcome.Result.PASS),
        Map.of("sc", 0L, "oldest", 0L));
    List<TrialOutcome> outcomes = new TrialScheduler(executor, StoppingRule.standard(20), 1, null)
        .run(cells("sc", "oldest"), o -> {});
    assertEquals(Map.of("sc", 2L, "oldest", 5L), runs(outcomes),
        "sc is only a control: every third round while stable (rounds 1 and 4), and it ends with the adversaries");
  }

  @Test
  void aDecisiveSlowdownStopsItsHeuristicOnceBothSidesHaveEightTimedRuns() throws Exception {
    TrialExecutor executor = byHeuristic(
        Map.of("sc", TrialOutcome.Result.PASS, "oldest", TrialOutcome.Result.PASS, "random", TrialOutcome.Result.PASS),
        Map.of("sc", 0L, "oldest", 5L, "random", 5L), Map.of("sc", 10L, "oldest", 100L, "random", 11L));
    List<TrialOutcome> outcomes = new TrialScheduler(executor, StoppingRule.standard(20), 1, null)
        .run(cells("sc", "oldest", "random"), o -> {});
    assertEquals(Map.of("sc", 29L, "oldest", 18L, "random", 19L), runs(outcomes),
        "oldest is 10x slower (decisive at 8 vs 8), then confirmed in 10 back-to-back pairs; random is not slower:"
            + " benign with confidence after 19 runs");
    Classification c = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(outcomes), false);
    assertEquals(Verdict.QOS, c.verdict(), c.summary());
    assertTrue(c.summary().contains("confirmed in 10 back-to-back pair(s) with sc: median 10.00x"), c.summary());
    assertEquals(20, outcomes.stream().filter(o -> o.pair() != null).count());
  }

  /**
   * A machine whose load swings in step with the unit's rounds (another trial JVM running rounds of the same length
   * beside it: the synthetic benchmark's benign {@code Race016.cached} came out "2.0x slower, p = 0.0005"). The load
   * depends only on time — here the run's position, every fifth run on a quiet machine, the others on a busy one — and
   * lands mostly on the adversarial runs: the screening rule calls the benign race qos, the pairs made back to back
   * do not, and the evidence says why.
   */
  @Test
  void aLoadSwingInStepWithTheRoundsIsNotQosOnceThePairsAreRunBackToBack() throws Exception {
    List<TrialOutcome> benign = underLoad(Map.of());
    List<HeuristicTrials> rounds = withoutPairs(benign);
    assertTrue(rounds.stream().filter(t -> !t.isControl()).anyMatch(t -> VerdictClassifier.standard()
        .slower(t.durationsMillis(), rounds.get(0).durationsMillis(), 4)), "the old rule (the screening alone) says qos");
    Classification c = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(benign), false);
    assertEquals(Verdict.BENIGN, c.verdict(), c.summary());
    assertTrue(c.facts().entrySet().stream().anyMatch(e -> e.getKey().endsWith(".pairs")
        && e.getValue().contains("back-to-back pair(s) with sc: median 1.00x")), c.facts().toString());

    // the same machine, and heuristics that really make the test 3x slower: qos, confirmed by the pairs of one
    List<TrialOutcome> slowRuns = underLoad(Map.of("oldest", 3L, "random", 3L));
    Classification slow = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(slowRuns), false);
    assertEquals(Verdict.QOS, slow.verdict(), slow.summary());
    assertTrue(slow.summary().contains("confirmed in 10 back-to-back pair(s) with sc: median 3.00x"), slow.summary());
    assertEquals(20, slowRuns.stream().filter(o -> o.pair() != null).count(), "one confirmed slowdown settles qos");
  }

  /**
   * Load spikes that kill every seventh run at its limit, whatever its heuristic: under sc they are run again, under
   * a heuristic they count at their limit — neither makes the benign race flaky, nor qos (no median moves, and the
   * pairs, if any, would see the spikes on both sides).
   */
  @Test
  void timeoutsFromLoadSpikesMakeABenignRaceNeitherFlakyNorQos() throws Exception {
    AtomicInteger clock = new AtomicInteger();
    TrialExecutor spiky = spec -> clock.getAndIncrement() % 7 == 6
        ? new TrialOutcome(spec, TrialOutcome.Result.TIMEOUT, 10_000, 0, 0, "the test did not finish within 10 s (load 9.1)",
            "java …")
        : new TrialOutcome(spec, TrialOutcome.Result.PASS, 100 + clock.get() % 3, 100, spec.heuristic().equals("sc") ? 0 : 5,
            null, "java …");
    List<TrialOutcome> outcomes = new TrialScheduler(spiky, StoppingRule.standard(20), 1, null)
        .run(cells("sc", "oldest", "oldest-but-different", "random", "random-but-different"), o -> {});
    assertTrue(outcomes.stream().filter(TrialOutcome::timedOut).count() >= 10, "spikes under every heuristic");
    Classification c = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(outcomes), false);
    assertEquals(Verdict.BENIGN, c.verdict(), c.summary());
    assertTrue(c.facts().containsKey("sc.timeouts") || c.facts().keySet().stream().anyMatch(k -> k.endsWith(".timeouts")));
  }

  /** A unit of sc and four heuristics on a machine busy for four runs out of five; {@code factor}: real slowdowns. */
  private static List<TrialOutcome> underLoad(Map<String, Long> factor) throws InterruptedException {
    AtomicInteger clock = new AtomicInteger();
    TrialExecutor machine = spec -> {
      long load = clock.getAndIncrement() % 5 == 0 ? 1 : 2;
      long millis = 100 * load * factor.getOrDefault(spec.heuristic(), 1L);
      return new TrialOutcome(spec, TrialOutcome.Result.PASS, millis, 100, spec.heuristic().equals("sc") ? 0 : 5, null,
          "java …", false);
    };
    return new TrialScheduler(machine, StoppingRule.standard(20), 1, null)
        .run(cells("sc", "oldest", "oldest-but-different", "random", "random-but-different"), o -> {});
  }

  /** The evidence the screening rule alone judged: the unit's rounds, without the confirmation pairs. */
  private static List<HeuristicTrials> withoutPairs(List<TrialOutcome> outcomes) {
    return TrialEvidence.byHeuristic(outcomes.stream().filter(o -> o.pair() == null).toList());
  }

  /** Sequential stopping for benign: 19 failure-free runs with stale values put the failure rate below 15 % (95 %). */
  @Test
  void aBenignHeuristicStopsOnceItsFailureRateIsBoundedAndTheEvidenceSaysSo() throws Exception {
    TrialExecutor executor = byHeuristic(Map.of("sc", TrialOutcome.Result.PASS, "oldest", TrialOutcome.Result.PASS,
        "random", TrialOutcome.Result.PASS), Map.of("sc", 0L, "oldest", 2L, "random", 5L));
    List<TrialOutcome> outcomes = new TrialScheduler(executor, StoppingRule.standard(20), 1, null)
        .run(cells("sc", "oldest", "random"), o -> {});
    assertEquals(Map.of("sc", 7L, "oldest", 19L, "random", 19L), runs(outcomes),
        "not 20 each; the stable control runs every third round (1, 4, 7, … 19)");
    assertEquals(19, StoppingRule.BENIGN_AFTER);
    Classification c = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(outcomes), false);
    assertEquals(Verdict.BENIGN, c.verdict());
    assertEquals("below 15 % with 95 % confidence under every heuristic that served stale values (at least 19 run(s)"
        + " each, none failed)", c.facts().get("failureRateBound"));
  }

  /**
   * The deterministic heuristics count each other's runs when the agent says every read of them chose alike
   * ({@link SharedRuns}): three heuristics that always choose alike reach the benign rule's 19 runs together in a
   * third of the runs; {@code random} shares none and runs its 19.
   */
  @Test
  void runsAnotherHeuristicWouldHaveMadeAlikeCountForItsBenignRule() throws Exception {
    TrialExecutor alike = spec -> new TrialOutcome(spec, TrialOutcome.Result.PASS, 10, 100,
        "sc".equals(spec.heuristic()) ? 0 : 3, null, "java …").withSameChoices(switch (spec.heuristic()) {
          case "oldest" -> java.util.Set.of("oldest-but-different", "random-but-different");
          case "oldest-but-different" -> java.util.Set.of("oldest", "random-but-different");
          case "random-but-different" -> java.util.Set.of("oldest", "oldest-but-different");
          default -> java.util.Set.of();
        });
    List<TrialOutcome> outcomes = new TrialScheduler(alike, StoppingRule.standard(20), 1, null)
        .run(cells("sc", "oldest", "oldest-but-different", "random", "random-but-different"), o -> {});
    Map<String, Long> runs = runs(outcomes);
    assertEquals(19L, runs.get("random"));
    long deterministic = runs.get("oldest") + runs.get("oldest-but-different") + runs.get("random-but-different");
    assertTrue(deterministic <= 21, "three heuristics sharing every run: " + runs);
    for (String h : List.of("oldest", "oldest-but-different", "random-but-different")) {
      assertTrue(runs.get(h) + 2 * 7 >= 19, h + " stopped before 19 runs in all: " + runs);
    }
    List<HeuristicTrials> evidence = TrialEvidence.byHeuristic(outcomes);
    Classification c = VerdictClassifier.standard().classify(evidence, false);
    assertEquals(Verdict.BENIGN, c.verdict());
    HeuristicTrials oldest = evidence.stream().filter(t -> t.heuristic().equals("oldest")).findFirst().orElseThrow();
    assertEquals(runs.get("oldest-but-different") + runs.get("random-but-different"), oldest.sharedRuns());
    assertEquals(Long.toString(oldest.sharedRuns()), c.facts().get("oldest.sharedRuns"));
    assertTrue(c.facts().get("failureRateBound").startsWith("below 15 % with 95 % confidence under every heuristic"
        + " that served stale values (at least 19 run(s) each, none failed; counting runs of another heuristic that"
        + " chose every read as it would: oldest "), c.facts().get("failureRateBound"));
  }

  /**
   * One run of {@code oldest} that chose a read otherwise ends what its runs count for {@code oldest-but-different},
   * which then runs its own 19: counting only the runs that happened to agree would select the schedules on which it
   * behaves like {@code oldest}.
   */
  @Test
  void oneRunThatChoseOtherwiseEndsTheSharing() throws Exception {
    AtomicInteger oldestRuns = new AtomicInteger();
    TrialExecutor oneUnlike = spec -> {
      java.util.Set<String> same = java.util.Set.of();
      if (spec.heuristic().equals("oldest")) {
        same = oldestRuns.incrementAndGet() == 3 ? java.util.Set.of() : java.util.Set.of("oldest-but-different");
      }
      return new TrialOutcome(spec, TrialOutcome.Result.PASS, 10, 100, "sc".equals(spec.heuristic()) ? 0 : 3, null,
          "java …").withSameChoices(same);
    };
    List<TrialOutcome> outcomes = new TrialScheduler(oneUnlike, StoppingRule.standard(20), 1, null)
        .run(cells("sc", "oldest", "oldest-but-different"), o -> {});
    assertEquals(19L, runs(outcomes).get("oldest-but-different"));
    assertEquals(0, TrialEvidence.byHeuristic(outcomes).stream().mapToInt(HeuristicTrials::sharedRuns).sum());

    // a failed run is not shared either: the heuristic it failed under decides the field
    StoppingRule.Tally tally = StoppingRule.Tally.EMPTY;
    TrialSpec spec = new TrialSpec("demo.C.x", "id", "demo.CTest#t", "oldest", 1);
    TrialOutcome passed = new TrialOutcome(spec, TrialOutcome.Result.PASS, 10, 100, 3, null, "java …")
        .withSameChoices(java.util.Set.of("oldest-but-different"));
    TrialOutcome failed = new TrialOutcome(spec, TrialOutcome.Result.FAIL, 10, 100, 3, "boom", "java …")
        .withSameChoices(java.util.Set.of("oldest-but-different"));
    tally = tally.lent("oldest-but-different", passed).lent("oldest-but-different", passed);
    assertEquals(2, tally.benignRuns());
    assertEquals(0, tally.lent("oldest-but-different", failed).benignRuns());
    assertEquals(0, tally.lent("oldest-but-different", failed).lent("oldest-but-different", passed).benignRuns());
  }

  /**
   * A test that fails one run in five on its own (a reviewer's clock check), under every heuristic and the control,
   * whatever the race does. Three failures under {@code random} no longer convict against a clean control of 3 runs:
   * the control runs as often as {@code random} did ({@link StoppingRule#controlRunsNeeded}), fails too, and the race
   * must then fail significantly more often — it does not: flaky. With the baseline's runs without the agent (1 of 2
   * failed) as the control's first runs, the same from the start.
   */
  @Test
  void aTestThatFailsOnItsOwnNowAndThenConvictsOnlyBySignificance() throws Exception {
    Map<String, AtomicInteger> count = new java.util.concurrent.ConcurrentHashMap<>();
    TrialExecutor clockCheck = spec -> {
      boolean fail = count.computeIfAbsent(spec.heuristic(), h -> new AtomicInteger()).incrementAndGet() % 5 == 0;
      return new TrialOutcome(spec, fail ? TrialOutcome.Result.FAIL : TrialOutcome.Result.PASS, 10, 100,
          "sc".equals(spec.heuristic()) ? 0 : 3, fail ? "java.lang.AssertionError: not a good moment" : null, "java …");
    };
    List<TrialCell> cells = cells("sc", "random");
    List<TrialOutcome> plain = new TrialScheduler(clockCheck, StoppingRule.standard(20), 1, null).run(cells, o -> {});
    Classification c = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(plain), false);
    assertEquals(Verdict.FLAKY, c.verdict(), c.summary());
    assertTrue(runs(plain).get("sc") >= 5, "the control ran until it failed: " + runs(plain));

    count.clear();
    List<TrialOutcome> seeded = new TrialScheduler(clockCheck, StoppingRule.standard(20), 1, null)
        .withoutAgent(Map.of(cells.get(0).testId(), new int[] {1, 2})).run(cells, o -> {});
    Classification s = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(seeded), false, 1, 2);
    assertEquals(Verdict.FLAKY, s.verdict(), s.summary());
    assertTrue(s.summary().contains("under sc and without the agent, where every read returns the latest value, and no"
        + " heuristic made it fail significantly more often"), s.summary());
  }

  /**
   * A heuristic that fails 3 times in 14 runs convicts only against a clean control of 14 runs, not 3 — and the
   * control runs until 3 of 14 against its none is significant (one-sided Fisher at 5 %): 23 runs, past the
   * heuristics' 20. A heuristic that fails 2 of its 20 runs has the control run to its cap of 60, where 2 of 20
   * against 0 of 60 (p = 0.06) is still not significant, which the evidence says.
   */
  @Test
  void aClearControlAsLongAsTheConvictingHeuristicsRuns() throws Exception {
    List<TrialOutcome> outcomes = new TrialScheduler(failingOn(Set.of(5, 9, 14), Set.of()), StoppingRule.standard(20),
        1, null).run(cells("sc", "oldest"), o -> {});
    assertEquals(Map.of("sc", 23L, "oldest", 14L), runs(outcomes));
    Classification c = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(outcomes), false);
    assertEquals(Verdict.DESTRUCTIVE, c.verdict());
    assertEquals("3/14 runs failed under oldest, 0/23 under sc", c.summary());
    assertEquals("Fisher p = 0.047 for 3/14 under oldest against 0/23 under sc", c.facts().get("significance"));

    List<TrialOutcome> twoOf20 = new TrialScheduler(failingOn(Set.of(7, 15), Set.of()), StoppingRule.standard(20), 1,
        null).run(cells("sc", "oldest"), o -> {});
    assertEquals(Map.of("sc", 60L, "oldest", 20L), runs(twoOf20));
    Classification r = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(twoOf20), false);
    assertEquals(Verdict.DESTRUCTIVE, r.verdict());
    assertTrue(r.facts().get("significance").startsWith("Fisher p = 0.060 for 2/20 under oldest against 0/60 under"
        + " sc: not significant at 5 %"), r.facts().toString());

    // a reviewer's test that fails one run in twenty on its own: its control, clean for 20 runs, fails at its 30th
    List<TrialOutcome> flake = new TrialScheduler(failingOn(Set.of(7, 15), Set.of(30)), StoppingRule.standard(20), 1,
        null).run(cells("sc", "oldest"), o -> {});
    Classification f = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(flake), false);
    assertEquals(Verdict.FLAKY, f.verdict(), f.summary() + " " + runs(flake));
  }

  /**
   * A test whose n-th run under {@code oldest} fails (served stale values) for n in {@code oldestRuns}, and whose n-th
   * run under {@code sc} fails for n in {@code scRuns}; every other run passes.
   */
  private static TrialExecutor failingOn(Set<Integer> oldestRuns, Set<Integer> scRuns) {
    Map<String, AtomicInteger> count = new java.util.concurrent.ConcurrentHashMap<>();
    return spec -> {
      int n = count.computeIfAbsent(spec.heuristic(), h -> new AtomicInteger()).incrementAndGet();
      boolean control = "sc".equals(spec.heuristic());
      boolean fail = (control ? scRuns : oldestRuns).contains(n);
      return new TrialOutcome(spec, fail ? TrialOutcome.Result.FAIL : TrialOutcome.Result.PASS, 10, 100,
          control ? 0 : 3, fail ? "java.lang.AssertionError: " + (control ? "unlucky draw" : "stale") : null,
          "java …");
    };
  }

  /**
   * A reviewer's clock check: the test fails about one run in four on its own, and {@code random} happened to fail
   * 3 of its first 6 runs while the control passed its first 6. That used to convict (3/6 against 0/6, Fisher
   * p = 0.09). The control now runs until the conviction is significant — 9 runs for 3 of 6 — and fails at its 7th,
   * as the test does: the race must then fail significantly more often than the control, which it does not (flaky).
   * A heuristic failing 3 of its first 3 convicts after 3 clean control runs as before, p = 0.05 in its evidence.
   */
  @Test
  void aControlCleanByLuckRunsUntilTheConvictionIsSignificant() throws Exception {
    Map<String, AtomicInteger> count = new java.util.concurrent.ConcurrentHashMap<>();
    TrialExecutor clockCheck = spec -> {
      int n = count.computeIfAbsent(spec.heuristic(), h -> new AtomicInteger()).incrementAndGet();
      boolean fail = "sc".equals(spec.heuristic()) ? n >= 7 && n % 4 == 3 : n % 4 == 2;
      return new TrialOutcome(spec, fail ? TrialOutcome.Result.FAIL : TrialOutcome.Result.PASS, 10, 100,
          "sc".equals(spec.heuristic()) ? 0 : 3, fail ? "java.lang.AssertionError: too slow" : null, "java …");
    };
    List<TrialOutcome> outcomes = new TrialScheduler(clockCheck, StoppingRule.standard(20), 1, null)
        .run(cells("sc", "random"), o -> {});
    Classification c = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(outcomes), false);
    assertEquals(Verdict.FLAKY, c.verdict(), c.summary());
    assertTrue(runs(outcomes).get("sc") >= 7, "the control ran past its 6th run: " + runs(outcomes));

    count.clear();
    TrialExecutor destructive = spec -> new TrialOutcome(spec, "sc".equals(spec.heuristic())
        ? TrialOutcome.Result.PASS : TrialOutcome.Result.FAIL, 10, 100, "sc".equals(spec.heuristic()) ? 0 : 3,
        "sc".equals(spec.heuristic()) ? null : "java.lang.AssertionError: stale", "java …");
    List<TrialOutcome> convicted = new TrialScheduler(destructive, StoppingRule.standard(20), 1, null)
        .run(cells("sc", "random"), o -> {});
    assertEquals(Map.of("sc", 3L, "random", 3L), runs(convicted));
    Classification d = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(convicted), false);
    assertEquals(Verdict.DESTRUCTIVE, d.verdict(), d.summary());
    assertEquals("Fisher p = 0.050 for 3/3 under random against 0/3 under sc", d.facts().get("significance"));
  }

  /**
   * A reviewer's lost update (a histogram's buckets incremented without a lock): under the agent the control fails
   * one run in three, every heuristic every run. The field used to stop at the control's third failure with each
   * heuristic short of 0.01 / 4 alone, and the race came out flaky; all heuristics together fail significantly more
   * often than the control, so it is destructive, and no run is made after that is clear.
   */
  @Test
  void aLostUpdateThatAlsoFailsTheControlIsDestructive() throws Exception {
    Map<String, AtomicInteger> count = new java.util.concurrent.ConcurrentHashMap<>();
    TrialExecutor lostUpdate = spec -> {
      int n = count.computeIfAbsent(spec.heuristic(), h -> new AtomicInteger()).incrementAndGet();
      boolean control = "sc".equals(spec.heuristic());
      boolean fail = !control || n % 3 == 0;
      return new TrialOutcome(spec, fail ? TrialOutcome.Result.FAIL : TrialOutcome.Result.PASS, 10, 100,
          control ? 0 : 3, fail ? "java.lang.AssertionError: expected: <40> but was: <39>" : null, "java …");
    };
    List<TrialOutcome> outcomes = new TrialScheduler(lostUpdate, StoppingRule.standard(20), 1, null)
        .run(cells("sc", "oldest", "oldest-but-different", "random", "random-but-different"), o -> {});
    Classification c = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(outcomes), false);
    assertEquals(Verdict.DESTRUCTIVE, c.verdict(), c.summary() + " " + runs(outcomes));
    assertTrue(outcomes.size() < 40, "decided once significant: " + runs(outcomes));
  }

  /**
   * Once the control failed its third time, heuristics that fail at least twice as often run on to their maximum
   * (the Fisher comparison may still become significant); ones that fail as often as the control do not.
   */
  @Test
  void heuristicsFailingFarMoreOftenThanAFailingControlRunOn() {
    StoppingRule rule = StoppingRule.standard(20);
    TrialSpec scSpec = new TrialSpec("demo.C.x", "id", "demo.CTest#t", "sc", 1);
    TrialSpec oldestSpec = new TrialSpec("demo.C.x", "id", "demo.CTest#t", "oldest", 1);
    StoppingRule.Tally sc = StoppingRule.Tally.EMPTY;
    for (int i = 0; i < 12; i++) {
      boolean fail = i % 4 == 3;
      sc = sc.plus(new TrialOutcome(scSpec, fail ? TrialOutcome.Result.FAIL : TrialOutcome.Result.PASS, 10, 10, 0,
          fail ? "x" : null, "java …"));
    }
    StoppingRule.Tally ahead = StoppingRule.Tally.EMPTY;
    StoppingRule.Tally even = StoppingRule.Tally.EMPTY;
    for (int i = 0; i < 6; i++) {
      boolean fail = i % 2 == 0;
      ahead = ahead.plus(new TrialOutcome(oldestSpec, fail ? TrialOutcome.Result.FAIL : TrialOutcome.Result.PASS, 10,
          10, 2, fail ? "x" : null, "java …"));
      boolean rarely = i == 5;
      even = even.plus(new TrialOutcome(oldestSpec, rarely ? TrialOutcome.Result.FAIL : TrialOutcome.Result.PASS, 10,
          10, 2, rarely ? "x" : null, "java …"));
    }
    // sc 3 of 12 (25 %); oldest 3 of 6 (50 %: twice) runs on, 1 of 6 does not
    assertFalse(rule.fieldDecided(Map.of("sc", sc, "oldest", ahead)));
    assertFalse(rule.done("oldest", Map.of("sc", sc, "oldest", ahead)));
    assertTrue(rule.fieldDecided(Map.of("sc", sc, "oldest", even)));
  }

  /** A heuristic whose median is already 1.5x the control's runs on: qos needs its runs to become significant. */
  @Test
  void aSlowdownBuildingUpIsNotCutShortAsBenign() {
    TrialSpec scSpec = new TrialSpec("demo.C.x", "id", "demo.CTest#t", "sc", 1);
    TrialSpec oldestSpec = new TrialSpec("demo.C.x", "id", "demo.CTest#t", "oldest", 1);
    StoppingRule.Tally sc = StoppingRule.Tally.EMPTY;
    StoppingRule.Tally slowish = StoppingRule.Tally.EMPTY;
    StoppingRule.Tally even = StoppingRule.Tally.EMPTY;
    for (int i = 0; i < 19; i++) {
      sc = sc.plus(new TrialOutcome(scSpec, TrialOutcome.Result.PASS, i < 10 ? 100 : 300, 10, 0, null, "java …"));
      slowish = slowish.plus(new TrialOutcome(oldestSpec, TrialOutcome.Result.PASS, i < 9 ? 100 : 160, 10, 2, null, "java …"));
      even = even.plus(new TrialOutcome(oldestSpec, TrialOutcome.Result.PASS, 100, 10, 2, null, "java …"));
    }
    StoppingRule rule = StoppingRule.standard(20);
    assertTrue(!VerdictClassifier.standard().slower(slowish.timedMillis(), sc.timedMillis(), 1), "not significant yet");
    assertTrue(!rule.done("oldest", Map.of("sc", sc, "oldest", slowish)), "median 1.6x the control's: runs on");
    assertTrue(rule.done("oldest", Map.of("sc", sc, "oldest", even)), "no slowdown: benign after 19");
  }

  /**
   * A stable control runs every third round (its runs spread over the same loads as the adversarial ones), and comes
   * back to every round with a suspected slowdown or a failure.
   */
  @Test
  void aStableControlRunsEveryThirdRoundAndASlowdownOrFailureBringsItBack() {
    TrialSpec scSpec = new TrialSpec("demo.C.x", "id", "demo.CTest#t", "sc", 1);
    TrialSpec oldestSpec = new TrialSpec("demo.C.x", "id", "demo.CTest#t", "oldest", 1);
    TrialOutcome scRun = new TrialOutcome(scSpec, TrialOutcome.Result.PASS, 100, 10, 0, null, "java …");
    TrialOutcome oldestRun = new TrialOutcome(oldestSpec, TrialOutcome.Result.PASS, 105, 10, 2, null, "java …");
    TrialOutcome slowRun = new TrialOutcome(oldestSpec, TrialOutcome.Result.PASS, 500, 10, 2, null, "java …");
    StoppingRule rule = StoppingRule.standard(20);
    StoppingRule.Tally sc = StoppingRule.Tally.EMPTY.plus(scRun);
    StoppingRule.Tally oldest = StoppingRule.Tally.EMPTY.plus(oldestRun).plus(oldestRun);
    assertTrue(rule.done("sc", Map.of("sc", sc, "oldest", oldest)), "rounds 2 and 3 without the control");
    oldest = oldest.plus(oldestRun);
    assertTrue(!rule.done("sc", Map.of("sc", sc, "oldest", oldest)), "round 4: the control's second run");
    sc = sc.plus(scRun).atRound(3);
    assertTrue(rule.done("sc", Map.of("sc", sc, "oldest", oldest)));
    StoppingRule.Tally slower = oldest;
    for (int i = 0; i < 5; i++) slower = slower.plus(slowRun);
    assertTrue(!rule.done("sc", Map.of("sc", sc, "oldest", slower)), "a slowdown building up: every round again");
    StoppingRule.Tally unexplained = oldest.plus(new TrialOutcome(oldestSpec, TrialOutcome.Result.FAIL, 100, 10, 0,
        "java.lang.AssertionError", "java …"));
    assertTrue(!rule.done("sc", Map.of("sc", sc, "oldest", unexplained)), "a failure no stale value explains: back");

    // a control that ran in each of the first four rounds (a slowdown suspected then) rests two rounds, not four
    StoppingRule.Tally frontLoaded = StoppingRule.Tally.EMPTY;
    for (int i = 0; i < 4; i++) frontLoaded = frontLoaded.plus(scRun);
    frontLoaded = frontLoaded.atRound(3);
    StoppingRule.Tally later = oldest.plus(oldestRun);
    assertTrue(rule.done("sc", Map.of("sc", frontLoaded, "oldest", later)), "round 5: resting");
    later = later.plus(oldestRun);
    assertTrue(rule.done("sc", Map.of("sc", frontLoaded, "oldest", later)), "round 6: resting");
    later = later.plus(oldestRun);
    assertTrue(!rule.done("sc", Map.of("sc", frontLoaded, "oldest", later)),
        "round 7: three rounds since its last run, although its four runs are more than every third round's share");
  }

  /** Once sc failed, no heuristic is focused on: any of them may be the one that beats the control (Fisher). */
  @Test
  void aControlFailureUnfocusesEveryHeuristic() {
    TrialSpec scSpec = new TrialSpec("demo.C.x", "id", "demo.CTest#t", "sc", 1);
    TrialSpec oldestSpec = new TrialSpec("demo.C.x", "id", "demo.CTest#t", "oldest", 1);
    StoppingRule.Tally failing = StoppingRule.Tally.EMPTY.plus(new TrialOutcome(oldestSpec, TrialOutcome.Result.FAIL,
        100, 10, 3, "java.lang.NullPointerException", "java …"));
    StoppingRule.Tally clean = StoppingRule.Tally.EMPTY.plus(new TrialOutcome(scSpec, TrialOutcome.Result.PASS, 100, 10,
        0, null, "java …"));
    StoppingRule.Tally failedControl = clean.plus(new TrialOutcome(scSpec, TrialOutcome.Result.FAIL, 100, 10, 0,
        "java.lang.AssertionError", "java …"));
    StoppingRule rule = StoppingRule.standard(20);
    assertEquals("oldest", StoppingRule.convicted(Map.of("sc", clean, "oldest", failing, "random", StoppingRule.Tally.EMPTY)));
    assertTrue(rule.done("random", Map.of("sc", clean, "oldest", failing, "random", StoppingRule.Tally.EMPTY)));
    assertEquals(null, StoppingRule.convicted(Map.of("sc", failedControl, "oldest", failing)));
    assertTrue(!rule.done("random", Map.of("sc", failedControl, "oldest", failing, "random", StoppingRule.Tally.EMPTY)));
  }

  @Test
  void warmUpRunsStayOutOfTheTimings() {
    TrialSpec spec = new TrialSpec("demo.C.x", "id", "demo.CTest#t", "oldest", 1);
    StoppingRule.Tally tally = StoppingRule.Tally.EMPTY
        .plus(new TrialOutcome(spec, TrialOutcome.Result.PASS, 900, 1, 1, null, "java …", true))
        .plus(new TrialOutcome(spec, TrialOutcome.Result.PASS, 30, 1, 1, null, "java …", false));
    assertEquals(2, tally.runs());
    assertEquals(List.of(30L), tally.timedMillis());
    HeuristicTrials evidence = TrialEvidence.byHeuristic(List.of(
        new TrialOutcome(spec, TrialOutcome.Result.PASS, 900, 1, 1, null, "java …", true),
        new TrialOutcome(spec, TrialOutcome.Result.PASS, 30, 1, 1, null, "java …", false))).get(0);
    assertEquals(2, evidence.runs());
    assertEquals(List.of(30L), evidence.durationsMillis());
  }

  @Test
  void aDecidedFieldStartsNoRunOnItsOtherTests() throws Exception {
    TrialExecutor executor = byHeuristic(
        Map.of("sc", TrialOutcome.Result.PASS, "oldest", TrialOutcome.Result.FAIL), Map.of("sc", 0L, "oldest", 3L));
    List<TrialCell> cells = new ArrayList<>(cellsOf("first", "sc", "oldest"));
    cells.addAll(cellsOf("second", "sc", "oldest"));
    List<TrialOutcome> outcomes = new TrialScheduler(executor, StoppingRule.standard(20), 1, null).run(cells, o -> {});
    assertTrue(outcomes.stream().allMatch(o -> o.spec().testId().equals("first")), "one worker: the first test decided it");
    assertEquals(6, outcomes.size());
  }

  @Test
  void scFailingEveryRunStopsTheFieldAfterThreeFailuresThatCountAsUnexplained() throws Exception {
    TrialExecutor executor = byHeuristic(Map.of("sc", TrialOutcome.Result.FAIL, "oldest", TrialOutcome.Result.PASS),
        Map.of("sc", 0L, "oldest", 2L));
    List<TrialOutcome> outcomes = new TrialScheduler(executor, StoppingRule.standard(20), 1, null)
        .run(cells("sc", "oldest"), o -> {});
    assertEquals(Map.of("sc", 3L, "oldest", 2L), runs(outcomes), "flaky after sc's third failure, mid-round");
    HeuristicTrials sc = TrialEvidence.byHeuristic(outcomes).get(0);
    assertEquals(3, sc.unexplainedFailures());
    assertEquals(0, sc.explainedFailures());
  }

  @Test
  void anIntermittentControlFailureKeepsTheTrialsGoingUntilTheHeuristicFailsSignificantlyMoreOften()
      throws Exception {
    // sc fails its first run only (the test's own intermittence); oldest fails every run with stale values
    AtomicInteger scRuns = new AtomicInteger();
    TrialExecutor executor = spec -> {
      boolean fail = spec.heuristic().equals("oldest") || scRuns.getAndIncrement() == 0;
      return new TrialOutcome(spec, fail ? TrialOutcome.Result.FAIL : TrialOutcome.Result.PASS, 10, 100,
          spec.heuristic().equals("oldest") ? 2 : 0, fail ? "java.lang.AssertionError" : null, "java …");
    };
    List<TrialOutcome> outcomes = new TrialScheduler(executor, StoppingRule.standard(20), 1, null)
        .run(cells("sc", "oldest"), o -> {});
    // 6 of 6 against 1 of 6: p = 7/924 < 0.01, decided; 5 of 5 against 1 of 5 (p = 6/252) was not yet
    assertEquals(Map.of("sc", 6L, "oldest", 6L), runs(outcomes));
    Classification c = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(outcomes), false);
    assertEquals(Verdict.DESTRUCTIVE, c.verdict());
  }

  /** The issue's loaded machine: one sc run hits its limit among passes; it is run again and is no failure. */
  @Test
  void anScTimeoutIsTheEnvironmentsNoiseRunAgainAndNeverAFailure() throws Exception {
    AtomicInteger scRuns = new AtomicInteger();
    TrialExecutor executor = spec -> {
      boolean sc = spec.heuristic().equals("sc");
      TrialOutcome.Result r = sc && scRuns.getAndIncrement() == 1 ? TrialOutcome.Result.TIMEOUT : TrialOutcome.Result.PASS;
      return new TrialOutcome(spec, r, r == TrialOutcome.Result.TIMEOUT ? 30_000 : 10, 100, sc ? 0 : 3,
          r == TrialOutcome.Result.TIMEOUT ? "the test did not finish within 30 s" : null, "java …");
    };
    List<TrialOutcome> outcomes = new TrialScheduler(executor, StoppingRule.standard(5), 1, null)
        .run(cells("sc", "oldest"), o -> {});
    // the control runs in rounds 1 and 4 while stable; its timeout in round 4 is run again at once, and from then on
    // it runs in every round (round 5)
    assertEquals(Map.of("sc", 4L, "oldest", 5L), runs(outcomes), "the timed-out control run was run again");
    int timedOut = outcomes.indexOf(outcomes.stream().filter(TrialOutcome::timedOut).findFirst().orElseThrow());
    assertEquals("sc", outcomes.get(timedOut + 1).spec().heuristic(), "at once");
    HeuristicTrials sc = TrialEvidence.byHeuristic(outcomes).get(0);
    assertEquals(3, sc.runs());
    assertEquals(1, sc.timeouts());
    assertEquals(0, sc.failures());
    assertEquals(3, sc.durationsMillis().size(), "the timeout's duration is not the control's");
    Classification c = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(outcomes), false);
    assertEquals(Verdict.BENIGN, c.verdict(), c.summary());
    assertEquals("1", c.facts().get("sc.timeouts"));
    assertTrue(TrialEvidence.timeoutFact(outcomes).startsWith("1 under sc (the environment's noise: run again)"),
        TrialEvidence.timeoutFact(outcomes));
  }

  @Test
  void aControlThatKeepsTimingOutStopsTheFieldAsFlaky() throws Exception {
    TrialExecutor executor = spec -> new TrialOutcome(spec,
        spec.heuristic().equals("sc") ? TrialOutcome.Result.TIMEOUT : TrialOutcome.Result.PASS, 10, 100,
        spec.heuristic().equals("sc") ? 0 : 2, null, "java …");
    List<TrialOutcome> outcomes = new TrialScheduler(executor, StoppingRule.standard(20), 1, null)
        .run(cells("sc", "oldest"), o -> {});
    assertEquals(3L, runs(outcomes).get("sc"), "three timeouts and no finished control run: given up on");
    Classification c = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(outcomes), false);
    assertEquals(Verdict.FLAKY, c.verdict());
    assertTrue(c.summary().startsWith("3 of 3 runs under sc timed out"), c.summary());
  }

  @Test
  void exhaustiveRunsGiveUpOnAControlThatAlwaysTimesOut() throws Exception {
    TrialExecutor executor = spec -> new TrialOutcome(spec, TrialOutcome.Result.TIMEOUT, 10, 0, 0, null, "java …");
    List<TrialOutcome> outcomes = new TrialScheduler(executor, StoppingRule.exhaustive(4), 1, null)
        .run(cells("sc"), o -> {});
    assertEquals(3, outcomes.size(), "no endless re-runs of the control");
  }

  /** Runs killed at their limit report no stale values; they do not make a heuristic unexercised. */
  @Test
  void adversarialTimeoutsAreNotUnexercisedRunsAndDecideQos() throws Exception {
    TrialExecutor executor = spec -> spec.heuristic().equals("sc")
        ? new TrialOutcome(spec, TrialOutcome.Result.PASS, 50, 100, 0, null, "java …")
        : new TrialOutcome(spec, TrialOutcome.Result.TIMEOUT, 10_250, 0, 0, "the test did not finish", "java …");
    List<TrialOutcome> outcomes = new TrialScheduler(executor, StoppingRule.standard(20), 1, null)
        .run(cells("sc", "oldest"), o -> {});
    assertEquals(Map.of("sc", 18L, "oldest", 18L), runs(outcomes),
        "decided by the slowdown at 8 against 8, not at 5, then confirmed in 10 pairs");
    Classification c = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(outcomes), false);
    assertEquals(Verdict.QOS, c.verdict(), c.summary());
    assertTrue(c.summary().contains("(18 of 18 runs timed out)"), c.summary());
    assertEquals(TrialOutcome.Result.TIMEOUT, TrialEvidence.firstFailure(outcomes, "oldest").result(),
        "the evidence replays a run that timed out");
  }

  /**
   * A field's follow-up (the fresh-JVM retry) starts as soon as that field's units end, on a free worker, while
   * another field is still running: no worker idles at a barrier between the two phases. The slow field's run waits
   * for the follow-up's first run; with a barrier it would wait in vain (its wait is bounded, and the test then fails).
   */
  @Test
  void aFollowUpStartsAsSoonAsItsFieldIsDoneWhileOtherFieldsStillRun() throws Exception {
    java.util.concurrent.CountDownLatch followUpStarted = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.atomic.AtomicBoolean slowSawFollowUp = new java.util.concurrent.atomic.AtomicBoolean();
    TrialExecutor executor = spec -> {
      if (spec.fieldKey().equals("demo.Slow.x") && spec.heuristic().equals("sc") && spec.seed() == new TrialCell(
          "demo.Slow.x", spec.testId(), spec.testName(), "sc").seed(0)) {
        slowSawFollowUp.set(followUpStarted.await(20, java.util.concurrent.TimeUnit.SECONDS));
      }
      return new TrialOutcome(spec, TrialOutcome.Result.PASS, 10, 10, spec.heuristic().equals("sc") ? 0 : 1, null, "java …");
    };
    TrialExecutor followUpExecutor = spec -> {
      followUpStarted.countDown();
      return new TrialOutcome(spec, TrialOutcome.Result.PASS, 10, 10, 0, null, "java …");
    };
    List<TrialCell> cells = new ArrayList<>();
    for (String h : List.of("sc", "oldest")) {
      cells.add(new TrialCell("demo.Quick.x", "quick", "demo.QuickTest#t", h));
      cells.add(new TrialCell("demo.Slow.x", "slow", "demo.SlowTest#t", h));
    }
    TrialScheduler scheduler = new TrialScheduler(executor, StoppingRule.standard(3), 2, null)
        .withFollowUp(new TrialScheduler.FollowUp(TrialSession.perRun(followUpExecutor), StoppingRule.standard(1),
            (fieldCells, fieldOutcomes) -> fieldCells.get(0).fieldKey().equals("demo.Quick.x")
                ? fieldCells.stream().map(c -> c.numberedFrom(FreshJvmRetry.FIRST_RUN)).toList() : List.of()));
    List<TrialOutcome> outcomes = scheduler.run(cells, o -> {});
    assertTrue(slowSawFollowUp.get(), "the quick field's follow-up ran while the slow field was still at its first run");
    assertEquals(1, scheduler.followUpUnits());
    assertEquals(2, outcomes.stream().filter(o -> o.spec().fieldKey().equals("demo.Quick.x")
        && o.spec().seed() == new TrialCell("demo.Quick.x", "quick", "demo.QuickTest#t", o.spec().heuristic())
            .seed(FreshJvmRetry.FIRST_RUN)).count(), "sc and oldest once each in the follow-up");
  }

  @Test
  void nothingStartsAfterTheDeadline() throws Exception {
    TrialExecutor executor = byHeuristic(Map.of("random", TrialOutcome.Result.PASS), Map.of("random", 1L));
    List<TrialOutcome> outcomes = new TrialScheduler(executor, StoppingRule.standard(20), 2, Instant.now().minusSeconds(1))
        .run(cells("random"), o -> {});
    assertTrue(outcomes.isEmpty());
  }

  @Test
  void seedsAreFixedPerCellAndRunAndDifferAcrossRuns() {
    TrialCell cell = cells("random").get(0);
    assertEquals(cell.seed(3), cells("random").get(0).seed(3));
    assertNotEquals(cell.seed(3), cell.seed(4));
    assertNotEquals(cell.seed(3), cells("oldest").get(0).seed(3));
  }

  @Test
  void agentOptionsNameTheFieldHeuristicSeedAndReport() {
    TrialSpec spec = new TrialSpec("demo.C.x", "id", "demo.CTest#t", "oldest", 42);
    assertEquals("mode=jumble;field=demo.C.x;heuristic=oldest;seed=42;out=/tmp/r.jsonl", spec.agentOptions("/tmp/r.jsonl"));
  }
}
