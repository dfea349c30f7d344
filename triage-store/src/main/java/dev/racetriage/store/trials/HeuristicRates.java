package dev.racetriage.store.trials;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The trials of one race under one heuristic in the words every view uses: {@code failureRate} is failed runs ÷ runs,
 * {@code staleReadRate} stale reads ÷ reads of the field, {@code medianMillis} the median run time (verdicts quote
 * medians, so tables show them too).
 */
public record HeuristicRates(String heuristic, int runs, int failures, int timeouts, double failureRate, long reads,
    long staleReads, double staleReadRate, long medianMillis) {

  /** One row per heuristic, in the order of {@code byHeuristic} ({@code sc} first, as the store gives them). */
  public static List<HeuristicRates> of(Map<String, List<TrialRecord>> byHeuristic) {
    List<HeuristicRates> rates = new ArrayList<>();
    byHeuristic.forEach((heuristic, records) -> {
      List<Trial> trials = records.stream().map(TrialRecord::trial).toList();
      int runs = trials.size();
      int failures = (int) trials.stream().filter(t -> t.outcome() == TrialOutcome.FAIL).count();
      int timeouts = (int) trials.stream().filter(t -> t.outcome() == TrialOutcome.TIMEOUT).count();
      long reads = trials.stream().mapToLong(Trial::reads).sum();
      long stale = trials.stream().mapToLong(Trial::staleReads).sum();
      long[] millis = trials.stream().mapToLong(t -> t.duration().toMillis()).sorted().toArray();
      long median = millis.length == 0 ? 0 : millis.length % 2 == 1 ? millis[millis.length / 2]
          : (millis[millis.length / 2 - 1] + millis[millis.length / 2]) / 2;
      rates.add(new HeuristicRates(heuristic, runs, failures, timeouts, runs == 0 ? 0 : (double) failures / runs,
          reads, stale, reads == 0 ? 0 : (double) stale / reads, median));
    });
    return rates;
  }
}
