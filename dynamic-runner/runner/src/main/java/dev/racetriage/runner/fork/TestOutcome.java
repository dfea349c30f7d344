package dev.racetriage.runner.fork;

/**
 * What happened to one test in one JVM. {@code TIMED_OUT}: it was running when the JVM was killed at its deadline;
 * {@code CRASHED}: it was running when the JVM ended on its own ({@code System.exit}, a fatal error).
 */
public record TestOutcome(String id, String className, String method, String name, Status status, long millis, Failure failure) {

  public enum Status { PASSED, FAILED, ABORTED, SKIPPED, TIMED_OUT, CRASHED }

  /** A failure as the test JVM reported it. */
  public record Failure(String type, String message, String stack) {}

  public boolean failed() {
    return status == Status.FAILED || status == Status.TIMED_OUT || status == Status.CRASHED;
  }
}
