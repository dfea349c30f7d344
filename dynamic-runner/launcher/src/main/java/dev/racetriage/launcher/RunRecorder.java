package dev.racetriage.launcher;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * What the selected tests did in one run of the trial server: the worst status (failed over aborted over passed),
 * the first failure, the summed test time, the number of tests. Containers count only when they fail (a failing
 * {@code @BeforeAll} fails its tests without running them).
 */
final class RunRecorder implements TestExecutionListener {
  private int tests;
  private long nanos;
  private long startedAt;
  private TestExecutionResult.Status worst;
  private Throwable firstFailure;

  @Override
  public synchronized void executionStarted(TestIdentifier id) {
    if (id.isTest()) {
      startedAt = System.nanoTime();
    }
  }

  @Override
  public synchronized void executionFinished(TestIdentifier id, TestExecutionResult result) {
    if (id.isTest()) {
      tests++;
      nanos += System.nanoTime() - startedAt;
    } else if (result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
      return;
    }
    if (worst == null || rank(result.getStatus()) > rank(worst)) {
      worst = result.getStatus();
    }
    if (firstFailure == null && result.getThrowable().isPresent()) {
      firstFailure = result.getThrowable().get();
    }
  }

  private static int rank(TestExecutionResult.Status status) {
    return switch (status) {
      case SUCCESSFUL -> 0;
      case ABORTED -> 1;
      case FAILED -> 2;
    };
  }

  synchronized int tests() {
    return tests;
  }

  synchronized long millis() {
    return nanos / 1_000_000;
  }

  /** {@code passed}, {@code failed}, {@code aborted}, or {@code none} when no test ran. */
  synchronized String status() {
    if (worst == null) return "none";
    return switch (worst) {
      case SUCCESSFUL -> "passed";
      case ABORTED -> "aborted";
      case FAILED -> "failed";
    };
  }

  synchronized Throwable failure() {
    return firstFailure;
  }
}
