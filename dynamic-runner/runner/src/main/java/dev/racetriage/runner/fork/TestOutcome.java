package dev.racetriage.runner.fork;

/**
 * What happened to one test in one JVM. {@code HUNG}: it ran past its own limit and the launcher's watchdog stopped
 * the JVM ({@code threads} holds the thread dump excerpt taken then); {@code TIMED_OUT}: it was running when the whole
 * JVM was killed at its deadline (the backstop for a JVM the watchdog could not stop); {@code CRASHED}: it was running
 * when the JVM ended on its own ({@code System.exit}, a fatal error).
 */
public record TestOutcome(String id, String className, String method, String name, Status status, long millis,
    Failure failure, String threads) {

  public enum Status { PASSED, FAILED, ABORTED, SKIPPED, HUNG, TIMED_OUT, CRASHED }

  /** A failure as the test JVM reported it. */
  public record Failure(String type, String message, String stack) {}

  /** An outcome without a thread dump (every status but {@code HUNG}). */
  public TestOutcome(String id, String className, String method, String name, Status status, long millis, Failure failure) {
    this(id, className, method, name, status, millis, failure, null);
  }

  public boolean failed() {
    return status == Status.FAILED || status == Status.HUNG || status == Status.TIMED_OUT || status == Status.CRASHED;
  }
}
