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
 */
public record UnitSpec(String module, String fieldKey, String testId, String testName, long baselineMillis,
                       List<Cell> cells, int maxRuns, boolean earlyStop, boolean repeatInJvm, boolean followUp,
                       boolean keepWork, Long deadlineMillis) {
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
    TrialCell first = cells.get(0);
    return new UnitSpec(module, first.fieldKey(), first.testId(), first.testName(), baselineMillis,
        cells.stream().map(c -> new Cell(c.heuristic(), c.indices(), c.firstRun())).toList(), maxRuns, earlyStop,
        repeatInJvm, followUp, keepWork, deadline == null ? null : deadline.toEpochMilli());
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
