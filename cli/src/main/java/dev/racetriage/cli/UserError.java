package dev.racetriage.cli;

/** A failure the user can act on: the message says what went wrong and what to do; no stack trace is shown. */
public class UserError extends RuntimeException {
  private final int exitCode;

  public UserError(String message, int exitCode) {
    super(message);
    this.exitCode = exitCode;
  }

  public UserError(String message, int exitCode, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}
