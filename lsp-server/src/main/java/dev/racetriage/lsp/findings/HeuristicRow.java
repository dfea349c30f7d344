package dev.racetriage.lsp.findings;

/**
 * One line of a verdict's trial table: how one adversarial-memory heuristic fared.
 *
 * @param heuristic {@code sc}, {@code oldest}, {@code oldest-but-different}, …
 * @param runs trials run
 * @param failures trials whose test failed
 * @param staleReads reads that returned a stale value, over all runs
 * @param failureRate failed runs ÷ runs
 * @param staleReadRate stale reads ÷ reads of the field
 * @param medianMillis median test duration (verdicts quote medians)
 */
public record HeuristicRow(String heuristic, int runs, int failures, long staleReads, double failureRate,
    double staleReadRate, double medianMillis) {}
