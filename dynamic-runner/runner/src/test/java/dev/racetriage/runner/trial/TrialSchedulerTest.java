package dev.racetriage.runner.trial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.runner.verdict.HeuristicTrials;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Scheduling and early stopping, with trials decided by a table instead of a JVM: the JVM side is covered by the
 * runner's integration tests; here the question is only when runs stop and how evidence is folded.
 */
class TrialSchedulerTest {
  /** Decides each trial's outcome from its heuristic, like a program whose race shows under some heuristics. */
  private static TrialExecutor byHeuristic(Map<String, TrialOutcome.Result> results, Map<String, Long> stale) {
    return spec -> new TrialOutcome(spec, results.get(spec.heuristic()), 10, 100, stale.get(spec.heuristic()),
        results.get(spec.heuristic()) == TrialOutcome.Result.PASS ? null : "java.lang.NullPointerException", "java …");
  }

  private static List<TrialCell> cells(String... heuristics) {
    List<TrialCell> cells = new ArrayList<>();
    for (String h : heuristics) cells.add(new TrialCell("demo.C.x", "[engine:junit-jupiter]/[class:demo.CTest]/[method:t()]", "demo.CTest#t", h));
    return cells;
  }

  @Test
  void aConvictingHeuristicStopsAfterThreeFailuresAndScRunsInFull() throws Exception {
    TrialExecutor executor = byHeuristic(
        Map.of("sc", TrialOutcome.Result.PASS, "oldest-but-different", TrialOutcome.Result.FAIL, "oldest", TrialOutcome.Result.PASS),
        Map.of("sc", 0L, "oldest-but-different", 4L, "oldest", 0L));
    List<TrialOutcome> seen = Collections.synchronizedList(new ArrayList<>());

    List<TrialOutcome> outcomes = new TrialScheduler(executor, StoppingRule.standard(20), 2, null)
        .run(cells("sc", "oldest-but-different", "oldest"), seen::add);

    Map<String, Long> runs = outcomes.stream().collect(Collectors.groupingBy(o -> o.spec().heuristic(), Collectors.counting()));
    assertEquals(20, runs.get("sc"));
    assertEquals(3, runs.get("oldest-but-different"), "decisive after three failures with stale reads");
    assertEquals(5, runs.get("oldest"), "no stale value in five runs: stop, it is not exercised");
    assertEquals(outcomes.size(), seen.size());

    List<HeuristicTrials> evidence = TrialEvidence.byHeuristic(outcomes);
    assertEquals("sc", evidence.get(0).heuristic(), "the control comes first");
    HeuristicTrials obd = evidence.stream().filter(t -> t.heuristic().equals("oldest-but-different")).findFirst().orElseThrow();
    assertEquals(3, obd.explainedFailures());
    assertEquals(0, obd.unexplainedFailures());
    assertEquals("java.lang.NullPointerException", TrialEvidence.firstFailure(outcomes, "oldest-but-different").failure());
  }

  @Test
  void scStopsAtItsFirstFailureAndItCountsAsUnexplained() throws Exception {
    TrialExecutor executor = byHeuristic(Map.of("sc", TrialOutcome.Result.FAIL), Map.of("sc", 0L));
    List<TrialOutcome> outcomes = new TrialScheduler(executor, StoppingRule.standard(20), 1, null).run(cells("sc"), o -> {});
    assertEquals(1, outcomes.size());
    HeuristicTrials sc = TrialEvidence.byHeuristic(outcomes).get(0);
    assertEquals(1, sc.unexplainedFailures());
    assertEquals(0, sc.explainedFailures());
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
