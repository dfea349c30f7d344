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
  private final String location;
  private final Reason reason;

  public UnusableDatabaseException(Path file, Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.file = file;
    this.location = file.toString();
    this.reason = reason;
  }

  /** A PostgreSQL store that racetriage must not use; {@code location} is its URL. */
  public UnusableDatabaseException(String location, Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.file = null;
    this.location = location;
    this.reason = reason;
  }

  /**
   * The one description of a damaged file, whoever finds the damage (the check when a store opens, or SQLite in the
   * middle of work), so every command says the same thing about it.
   */
  public static String corruptMessage(Path file, String detail) {
    return file + " is corrupt (" + detail + "). Move it away and run racetriage again: a new database is created, "
        + "verdicts are recomputed by 'racetriage triage', and trusted-benign marks are re-imported from "
        + ".racetriage/trusted-benign.json.";
  }

  /** The SQLite file, or null for a PostgreSQL store. */
  public Path file() {
    return file;
  }

  /** The file or the URL. */
  public String location() {
    return location;
  }

  public Reason reason() {
    return reason;
  }
}
