package dev.racetriage.store;

/**
 * A failure of the triage store that the caller can report to a user as is: the message names the file or field
 * involved and what to do. Unchecked so that repository calls stay readable; callers at a process boundary (CLI, LSP,
 * dashboard) catch it and show the message.
 */
public class StoreException extends RuntimeException {
  public StoreException(String message) {
    super(message);
  }

  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
