package dev.racetriage.runner.trial;

import dev.racetriage.runner.verdict.HeuristicTrials;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Folds one field's trial outcomes into the per-heuristic evidence the classifier reads ({@code sc} first). */
public final class TrialEvidence {
  private TrialEvidence() {}

  public static List<HeuristicTrials> byHeuristic(List<TrialOutcome> outcomes) {
    Map<String, List<TrialOutcome>> groups = new LinkedHashMap<>();
    for (TrialOutcome o : outcomes) {
      groups.computeIfAbsent(o.spec().heuristic(), h -> new ArrayList<>()).add(o);
    }
    List<HeuristicTrials> result = new ArrayList<>();
    groups.forEach((heuristic, runs) -> {
      int explained = 0;
      int unexplained = 0;
      long reads = 0;
      long stale = 0;
      List<Long> durations = new ArrayList<>();
      for (TrialOutcome o : runs) {
        reads += o.reads();
        stale += o.staleReads();
        if (!o.warmUp()) durations.add(o.millis()); // cold code: not comparable with the warm runs
        if (o.failed()) {
          // A failure counts against the race only if this run was served a stale value (sc never is).
          if (o.staleReads() > 0) explained++;
          else unexplained++;
        }
      }
      result.add(new HeuristicTrials(heuristic, runs.size(), explained, unexplained, reads, stale, durations));
    });
    result.sort(Comparator.comparing((HeuristicTrials t) -> !t.isControl()));
    return result;
  }

  /** The first failing trial under the given heuristic: the one whose replay command the evidence shows. */
  public static TrialOutcome firstFailure(List<TrialOutcome> outcomes, String heuristic) {
    return outcomes.stream().filter(o -> o.failed() && o.spec().heuristic().equals(heuristic)).findFirst().orElse(null);
  }
}
