package dev.racetriage.runner.trial;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs of one heuristic that are runs of another. At a read with a choice {@code oldest} and
 * {@code oldest-but-different} are deterministic, {@code random-but-different} is where at most one visible write
 * differs from the last value read, and {@code random} and {@code random-but-different} draw from the same writes
 * where every visible write differs from it (a location's first read); the agent reports, per run and field, which
 * other heuristics would have served every read alike with the same draws ({@code sameChoicesAs}). A run under H that
 * H' would have served alike is the run H' makes on the same schedule (with the same seed): the program cannot tell
 * them apart.
 *
 * <p>So H's runs count for H' in the benign rule ({@link StoppingRule}), on one condition: <em>every</em> run of H in
 * the unit (field and test) passed and chose as H' would. Then each of H's runs, like each of H' own, is a run in
 * which a schedule (and seed) that makes H' fail would have made it fail: one on which H and H' choose alike gives
 * both the same outcome, and one on which they differ would have shown as a run H' does not share. If H' fails with
 * probability p, each run (its own or a shared one) passes with probability at most 1 - p, and the rule's 19
 * failure-free runs bound p below 15 % with 95 % confidence as before. One run of H that chose otherwise, failed or
 * timed out (its report died with it) ends the sharing for that pair: H' then needs its own runs, and counting only
 * the shared runs that happen to agree would select the schedules on which H' behaves like H.
 */
public final class SharedRuns {
  /** The heuristics that can share runs: the adversarial read heuristics (not sc, not a container's perturbation). */
  public static final Set<String> SHARING = Set.of("oldest", "oldest-but-different", "random", "random-but-different");

  private SharedRuns() {}

  /**
   * The heuristics other than {@code heuristic} that would have made this run, from the agent's counters of the field
   * ({@code sameChoicesAs}); empty when the agent did not say or {@code heuristic} shares no run.
   */
  public static Set<String> sameChoices(String heuristic, JsonNode counters) {
    JsonNode alike = counters == null ? null : counters.get("sameChoicesAs");
    if (alike == null || !alike.isArray() || !SHARING.contains(heuristic)) return Set.of();
    Set<String> same = new HashSet<>();
    alike.forEach(h -> same.add(h.asText()));
    same.retainAll(SHARING);
    same.remove(heuristic);
    return same;
  }

  /**
   * {@link #sameChoices} over every counters object of {@code field} among {@code nodes} (a report's lines, a trial
   * server's fields): the heuristics that would have made the run for all of them; empty if there is none.
   */
  public static Set<String> sameChoices(String heuristic, String field, Iterable<JsonNode> nodes) {
    Set<String> same = null;
    for (JsonNode n : nodes) {
      if (!field.equals(n.path("field").asText())) continue;
      Set<String> these = sameChoices(heuristic, n);
      if (same == null) same = new HashSet<>(these);
      else same.retainAll(these);
    }
    return same == null ? Set.of() : same;
  }

  /** Whether {@code o}, a run of another heuristic, is a passing run {@code heuristic} would have made too. */
  static boolean sharedWith(TrialOutcome o, String heuristic) {
    return !o.timedOut() && !o.failed() && o.sameChoices().contains(heuristic);
  }

  /**
   * The runs of {@code source} that count for {@code heuristic} in one unit: its runs that served stale values, if
   * every run of it passed and chose as {@code heuristic} would ({@link #sharedWith}); else none.
   */
  static int shared(List<TrialOutcome> unit, String source, String heuristic) {
    if (source.equals(heuristic) || !SHARING.contains(source) || !SHARING.contains(heuristic)) return 0;
    int exercised = 0;
    for (TrialOutcome o : unit) {
      if (!o.spec().heuristic().equals(source)) continue;
      if (!sharedWith(o, heuristic)) return 0;
      if (o.staleReads() > 0) exercised++;
    }
    return exercised;
  }

  /**
   * Per heuristic, the runs of other heuristics that count for it ({@link #shared}), summed over the field's tests
   * (each test is a unit of its own); heuristics with none are left out.
   */
  public static Map<String, Integer> byHeuristic(List<TrialOutcome> outcomes) {
    Map<String, List<TrialOutcome>> byTest = new LinkedHashMap<>();
    Set<String> heuristics = new HashSet<>();
    for (TrialOutcome o : outcomes) {
      byTest.computeIfAbsent(o.spec().testId(), t -> new java.util.ArrayList<>()).add(o);
      heuristics.add(o.spec().heuristic());
    }
    Map<String, Integer> shared = new LinkedHashMap<>();
    for (String h : heuristics) {
      int n = 0;
      for (List<TrialOutcome> unit : byTest.values()) {
        for (String source : heuristics) n += shared(unit, source, h);
      }
      if (n > 0) shared.put(h, n);
    }
    return shared;
  }
}
