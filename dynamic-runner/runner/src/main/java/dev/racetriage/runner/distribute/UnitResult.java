package dev.racetriage.runner.distribute;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.racetriage.runner.trial.TrialOutcome;
import dev.racetriage.runner.trial.TrialSpec;
import java.util.List;

/**
 * What a worker reports when it finishes a unit: every outcome of it (reused ones too) with what the verdict needs
 * beyond the stored trial (warm-up and fresh-JVM flags, the replay command, the heuristics that would have made the
 * run alike), and the JVMs and test runs it cost.
 */
public record UnitResult(int jvms, int runs, List<Run> outcomes) {

  /** One outcome; the spec is the unit's cell with this heuristic, seed and indices. */
  public record Run(String heuristic, long seed, List<Integer> indices, String result, long millis, long reads,
                    long staleReads, String failure, String replayCommand, boolean warmUp, boolean freshJvm,
                    String pairHeuristic, int pairIndex, List<String> sameChoices) {}

  public UnitResult {
    outcomes = List.copyOf(outcomes);
  }

  public static UnitResult of(int jvms, int runs, List<TrialOutcome> outcomes) {
    return new UnitResult(jvms, runs, outcomes.stream().map(o -> new Run(o.spec().heuristic(), o.spec().seed(),
        o.spec().indices(), o.result().name(), o.millis(), o.reads(), o.staleReads(), o.failure(), o.replayCommand(),
        o.warmUp(), o.freshJvm(), o.pair() == null ? null : o.pair().heuristic(),
        o.pair() == null ? 0 : o.pair().index(), o.sameChoices().stream().sorted().toList())).toList());
  }

  /** The outcomes as the scheduler gave them to the worker, with the specs of {@code unit}. */
  public List<TrialOutcome> outcomes(UnitSpec unit) {
    return outcomes.stream().map(r -> new TrialOutcome(
        new TrialSpec(unit.fieldKey(), unit.testId(), unit.testName(), r.heuristic(), r.seed(), r.indices()),
        TrialOutcome.Result.valueOf(r.result()), r.millis(), r.reads(), r.staleReads(), r.failure(), r.replayCommand(),
        r.warmUp(), r.freshJvm(), r.pairHeuristic() == null ? null
            : new TrialOutcome.Pair(r.pairHeuristic(), r.pairIndex()),
        r.sameChoices() == null ? null : java.util.Set.copyOf(r.sameChoices()))).toList();
  }

  public String toJson() {
    try {
      return UnitSpec.json().writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a unit's outcomes as JSON", e);
    }
  }

  public static UnitResult fromJson(String json) {
    try {
      return UnitSpec.json().readValue(json, UnitResult.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not a unit's outcomes: " + e.getMessage(), e);
    }
  }
}
