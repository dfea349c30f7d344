package dev.racetriage.runner.distribute;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.runner.trial.StoppingRule;
import dev.racetriage.runner.trial.TrialCell;
import dev.racetriage.runner.trial.TrialOutcome;
import dev.racetriage.runner.trial.TrialSpec;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What travels through the shared queue: a unit a worker runs exactly as planned, and its outcomes back. */
class UnitSpecTest {
  private static final String FIELD = "p.Cache.hash";
  private static final List<TrialCell> CELLS = List.of(
      new TrialCell(FIELD, "[engine:junit-jupiter]/[class:p.CacheTest]/[method:t()]", "p.CacheTest#t", "sc"),
      new TrialCell(FIELD, "[engine:junit-jupiter]/[class:p.CacheTest]/[method:t()]", "p.CacheTest#t", "oldest",
          List.of(0, 3), 1000));

  @Test
  void aUnitSurvivesTheQueueWithItsSeedsAndSettings() {
    Instant deadline = Instant.parse("2026-11-26T20:00:00Z");
    UnitSpec unit = UnitSpec.of("core/api", 1234, CELLS, 20, true, true, false, true, deadline);
    UnitSpec back = UnitSpec.fromJson(unit.toJson());
    assertEquals(unit, back);
    assertEquals(CELLS, back.trialCells(), "same cells, so the same seeds and inputs keys on any worker");
    assertEquals(CELLS.get(1).seed(1000), back.trialCells().get(1).seed(1000));
    assertEquals(deadline, back.deadline());
    assertEquals(StoppingRule.standard(20), back.rule());
    assertEquals(StoppingRule.exhaustive(5),
        UnitSpec.of("core/api", 1234, CELLS, 5, false, true, true, false, null).rule());
    assertEquals(java.util.Map.of(), back.controlWithoutAgent());
    // a test that failed 1 of 2 runs without the agent: the worker seeds the unit's control with them
    UnitSpec intermittent = UnitSpec.fromJson(
        UnitSpec.of("core/api", 1234, CELLS, 20, true, true, false, true, deadline, new int[] {1, 2}).toJson());
    assertEquals(List.of(CELLS.get(0).testId()), List.copyOf(intermittent.controlWithoutAgent().keySet()));
    assertEquals(List.of(1, 2), java.util.Arrays.stream(intermittent.controlWithoutAgent().get(CELLS.get(0).testId()))
        .boxed().toList());
  }

  @Test
  void outcomesComeBackWithWhatTheVerdictNeeds() {
    UnitSpec unit = UnitSpec.of(".", 50, CELLS, 20, true, true, false, false, null);
    TrialSpec spec = new TrialSpec(FIELD, CELLS.get(1).testId(), "p.CacheTest#t", "oldest", 42L, List.of(0, 3));
    TrialOutcome failed = new TrialOutcome(spec, TrialOutcome.Result.FAIL, 120, 9, 4,
        "java.lang.AssertionError: boom", "racetriage replay p.Cache.hash", false, true);
    TrialOutcome warm = new TrialOutcome(spec, TrialOutcome.Result.TIMEOUT, 3000, 0, 0, null, null, true, false)
        .withSameChoices(java.util.Set.of("oldest-but-different", "random-but-different"));
    UnitResult result = UnitResult.fromJson(UnitResult.of(2, 7, List.of(failed, warm)).toJson());
    assertEquals(2, result.jvms());
    assertEquals(7, result.runs());
    assertEquals(List.of(failed, warm), result.outcomes(unit));
  }

  @Test
  void somethingElseInTheQueueIsAClearError() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> UnitSpec.fromJson("{\"x\": 1}"));
    assertTrue(e.getMessage().startsWith("not a unit of trials this racetriage can run"), e.getMessage());
  }
}
