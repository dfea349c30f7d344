package dev.racetriage.runner.triage;

/** A triage run could not do its job; the message names what failed (project, module, test) and what to do. */
public final class TriageException extends Exception {
  public TriageException(String message) {
    super(message);
  }

  public TriageException(String message, Throwable cause) {
    super(message, cause);
  }
}
