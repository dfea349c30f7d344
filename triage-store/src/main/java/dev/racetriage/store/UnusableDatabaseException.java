package dev.racetriage.store;

import java.nio.file.Path;

/**
 * The database file exists but racetriage must not use it: it is not SQLite, it is corrupt, it belongs to another
 * program, or a newer racetriage wrote it. The store never writes to such a file; the message says what to do.
 */
public final class UnusableDatabaseException extends StoreException {

  /** Why the file cannot be used. */
  public enum Reason {
    NOT_A_DATABASE,
    CORRUPT,
    FOREIGN,
    NEWER_SCHEMA
  }

  private final Path file;
  private final Reason reason;

  public UnusableDatabaseException(Path file, Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.file = file;
    this.reason = reason;
  }

  public Path file() {
    return file;
  }

  public Reason reason() {
    return reason;
  }
}
