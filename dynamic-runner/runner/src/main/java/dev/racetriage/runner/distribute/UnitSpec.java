package dev.racetriage.runner.distribute;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racetriage.runner.trial.StoppingRule;
import dev.racetriage.runner.trial.TrialCell;
import java.time.Instant;
import java.util.List;

/**
 * One planned unit of trials as it travels through the shared queue: a race's cells with one test (every heuristic),
 * which module's JVM runs the test, the test's baseline duration (its trial limit until its sc runs set one) and the
 * triage's settings that decide how the runs go. A worker on another machine runs exactly this, with the same seeds,
 * so a trial has the same inputs key wherever it runs.
 *
 * @param followUp the fresh-JVM retry of a race repetition left unexercised: one JVM per run, {@code maxRuns} of them
 * @param deadlineMillis the triage's {@code --budget} as an instant (null: none): no run starts after it
 * @param withoutAgent {failures, runs} of the test without the agent when its baseline failed intermittently (its
 *                     control's first runs: {@link dev.racetriage.runner.trial.TrialScheduler#withoutAgent}), else null
 */
public record UnitSpec(String module, String fieldKey, String testId, String testName, long baselineMillis,
                       List<Cell> cells, int maxRuns, boolean earlyStop, boolean repeatInJvm, boolean followUp,
                       boolean keepWork, Long deadlineMillis, List<Integer> withoutAgent) {
  private static final ObjectMapper JSON = new ObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** A cell of the unit: its heuristic, jumbled elements and first run number (its seeds follow from them). */
  public record Cell(String heuristic, List<Integer> indices, int firstRun) {}

  public UnitSpec {
    cells = List.copyOf(cells);
    if (cells.isEmpty()) throw new IllegalArgumentException("a unit has at least one cell");
  }

  /** The unit of {@code cells} (one field, one test). */
  public static UnitSpec of(String module, long baselineMillis, List<TrialCell> cells, int maxRuns, boolean earlyStop,
      boolean repeatInJvm, boolean followUp, boolean keepWork, Instant deadline) {
    return of(module, baselineMillis, cells, maxRuns, earlyStop, repeatInJvm, followUp, keepWork, deadline, null);
  }

  /** {@link #of}, for a test that failed {@code withoutAgent[0]} of {@code withoutAgent[1]} runs without the agent. */
  public static UnitSpec of(String module, long baselineMillis, List<TrialCell> cells, int maxRuns, boolean earlyStop,
      boolean repeatInJvm, boolean followUp, boolean keepWork, Instant deadline, int[] withoutAgent) {
    TrialCell first = cells.get(0);
    return new UnitSpec(module, first.fieldKey(), first.testId(), first.testName(), baselineMillis,
        cells.stream().map(c -> new Cell(c.heuristic(), c.indices(), c.firstRun())).toList(), maxRuns, earlyStop,
        repeatInJvm, followUp, keepWork, deadline == null ? null : deadline.toEpochMilli(),
        withoutAgent == null ? null : List.of(withoutAgent[0], withoutAgent[1]));
  }

  /**
   * The control's runs without the agent, by test id, for
   * {@link dev.racetriage.runner.trial.TrialScheduler#withoutAgent} (empty: none).
   */
  public java.util.Map<String, int[]> controlWithoutAgent() {
    return withoutAgent == null || withoutAgent.size() != 2 ? java.util.Map.of()
        : java.util.Map.of(testId, new int[] {withoutAgent.get(0), withoutAgent.get(1)});
  }

  public List<TrialCell> trialCells() {
    return cells.stream()
        .map(c -> new TrialCell(fieldKey, testId, testName, c.heuristic(), c.indices(), c.firstRun())).toList();
  }

  /** The stopping rule the local triage would use for this unit. */
  public StoppingRule rule() {
    return earlyStop ? StoppingRule.standard(maxRuns) : StoppingRule.exhaustive(maxRuns);
  }

  public Instant deadline() {
    return deadlineMillis == null ? null : Instant.ofEpochMilli(deadlineMillis);
  }

  public String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a unit of trials as JSON", e);
    }
  }

  /** Reads a unit planned by a triage; a clear error when another racetriage version planned something else. */
  public static UnitSpec fromJson(String json) {
    try {
      return JSON.readValue(json, UnitSpec.class);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new IllegalArgumentException("not a unit of trials this racetriage can run: " + e.getMessage(), e);
    }
  }

  static ObjectMapper json() {
    return JSON;
  }
}
