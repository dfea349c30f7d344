package dev.racetriage.runner.trial;

import dev.racetriage.runner.verdict.HeuristicTrials;
import dev.racetriage.runner.verdict.PairedRun;
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
    Map<String, Integer> shared = SharedRuns.byHeuristic(outcomes);
    groups.forEach((heuristic, runs) -> {
      int counted = 0;
      int explained = 0;
      int unexplained = 0;
      int timeouts = 0;
      long reads = 0;
      long stale = 0;
      List<Long> durations = new ArrayList<>();
      for (TrialOutcome o : runs) {
        if (o.timedOut()) {
          timeouts++;
          if (o.isControl()) continue; // the environment's noise: the control ran again
          counted++;
          durations.add(o.millis()); // at least the limit: a slowdown, never a failure
          continue;
        }
        counted++;
        reads += o.reads();
        stale += o.staleReads();
        if (!o.warmUp()) durations.add(o.millis()); // cold code: not comparable with the warm runs
        if (o.failed()) {
          // A failure counts against the race only if this run was served a stale value (sc never is).
          if (o.staleReads() > 0) explained++;
          else unexplained++;
        }
      }
      result.add(new HeuristicTrials(heuristic, counted, explained, unexplained, reads, stale, durations, timeouts,
          pairs(outcomes, heuristic), shared.getOrDefault(heuristic, 0)));
    });
    result.sort(Comparator.comparing((HeuristicTrials t) -> !t.isControl()));
    return result;
  }

  /**
   * The confirmation pairs of {@code heuristic} ({@link TrialOutcome#pair}), in the order they ran: per (test, pair)
   * its control run and its own run. A pair whose control timed out, or either of whose runs was a JVM's warm-up, is
   * left out (no comparable durations); an adversarial run that timed out counts at its limit, as in the screening.
   */
  static List<PairedRun> pairs(List<TrialOutcome> outcomes, String heuristic) {
    if (HeuristicTrials.SC.equals(heuristic)) return List.of();
    Map<List<Object>, TrialOutcome[]> byPair = new LinkedHashMap<>();
    for (TrialOutcome o : outcomes) {
      if (o.pair() == null || !o.pair().heuristic().equals(heuristic)) continue;
      TrialOutcome[] two = byPair.computeIfAbsent(List.of(o.spec().testId(), o.pair().index()), k -> new TrialOutcome[2]);
      two[o.isControl() ? 0 : 1] = o;
    }
    List<PairedRun> pairs = new ArrayList<>();
    for (TrialOutcome[] two : byPair.values()) {
      if (comparable(two[0], two[1])) pairs.add(new PairedRun(two[0].millis(), two[1].millis()));
    }
    return pairs;
  }

  /** Whether a control run and an adversarial run make a pair whose durations can be compared. */
  public static boolean comparable(TrialOutcome control, TrialOutcome adversarial) {
    return control != null && adversarial != null && !control.timedOut() && !control.warmUp() && !adversarial.warmUp();
  }

  /**
   * The first failing trial under the given heuristic (else its first timeout: a QoS verdict from hangs): the one
   * whose replay command the evidence shows.
   */
  public static TrialOutcome firstFailure(List<TrialOutcome> outcomes, String heuristic) {
    List<TrialOutcome> mine = outcomes.stream().filter(o -> o.spec().heuristic().equals(heuristic)).toList();
    return mine.stream().filter(TrialOutcome::failed).findFirst()
        .orElse(mine.stream().filter(TrialOutcome::timedOut).findFirst().orElse(null));
  }

  /**
   * What the evidence says about timeouts ({@code timeouts} fact), or null when no run timed out: per heuristic how
   * many, what they mean (noise under {@code sc}, QoS evidence otherwise), the limit, and the machine's load when it
   * was high.
   */
  public static String timeoutFact(List<TrialOutcome> outcomes) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    String last = null;
    for (TrialOutcome o : outcomes) {
      if (!o.timedOut()) continue;
      counts.merge(o.spec().heuristic(), 1, Integer::sum);
      last = o.failure();
    }
    if (counts.isEmpty()) return null;
    List<String> parts = new ArrayList<>();
    counts.forEach((h, n) -> parts.add(n + " under " + h + (HeuristicTrials.SC.equals(h)
        ? " (the environment's noise: run again)" : " (QoS evidence)")));
    return String.join(", ", parts) + "; last: " + last;
  }
}
