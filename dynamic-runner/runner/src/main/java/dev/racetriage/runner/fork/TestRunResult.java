package dev.racetriage.runner.fork;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The outcome of running a selection: what each test did, whether the launcher got to its summary, and where the raw
 * results and the JVMs' output are. A run that continued in fresh JVMs after a hang or a crash
 * ({@link ContinuingTestRun}) merges its attempts: {@code completed}, {@code exitCode}, {@code results} and
 * {@code log} are the last attempt's, {@code timedOut} is whether any attempt hit the whole-JVM deadline, and
 * {@code resultsFiles}/{@code logs} list every attempt's files in order.
 */
public record TestRunResult(List<TestOutcome> outcomes, boolean completed, boolean timedOut, int exitCode,
    Duration elapsed, Path results, Path log, List<Path> resultsFiles, List<Path> logs) {
  public TestRunResult {
    outcomes = List.copyOf(outcomes);
    resultsFiles = List.copyOf(resultsFiles);
    logs = List.copyOf(logs);
  }

  /** One JVM's result. */
  public TestRunResult(List<TestOutcome> outcomes, boolean completed, boolean timedOut, int exitCode, Duration elapsed,
      Path results, Path log) {
    this(outcomes, completed, timedOut, exitCode, elapsed, results, log, List.of(results), List.of(log));
  }

  public boolean anyFailed() {
    return !completed || outcomes.stream().anyMatch(TestOutcome::failed);
  }

  /** The tests the watchdog stopped for running past their limits. */
  public List<TestOutcome> hung() {
    return outcomes.stream().filter(o -> o.status() == TestOutcome.Status.HUNG).toList();
  }

  /** How many JVMs ran. */
  public int attempts() {
    return logs.size();
  }
}
