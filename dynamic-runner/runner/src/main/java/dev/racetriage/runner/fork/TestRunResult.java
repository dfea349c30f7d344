package dev.racetriage.runner.fork;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The outcome of one test JVM: what each test did, whether the launcher got to its summary, and where the raw
 * results and the JVM's output are.
 */
public record TestRunResult(
    List<TestOutcome> outcomes, boolean completed, boolean timedOut, int exitCode, Duration elapsed, Path results, Path log) {
  public TestRunResult {
    outcomes = List.copyOf(outcomes);
  }

  public boolean anyFailed() {
    return !completed || outcomes.stream().anyMatch(TestOutcome::failed);
  }
}
