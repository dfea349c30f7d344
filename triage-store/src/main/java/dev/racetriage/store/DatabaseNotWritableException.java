package dev.racetriage.store;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The database is a good racetriage file but this process cannot write it: it is read-only (the file, its directory
 * or its file system), or another process kept its write lock for longer than racetriage waits. Thrown when a store
 * is opened, before any long work, and by any later write that meets the same condition. Not a schema problem: the
 * message never speaks of migrating.
 */
public final class DatabaseNotWritableException extends StoreException {

  /** Why the file cannot be written. */
  public enum Reason {
    READ_ONLY,
    LOCKED
  }

  private final Path file;
  private final String location;
  private final Reason reason;

  private DatabaseNotWritableException(Path file, String location, Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.file = file;
    this.location = location;
    this.reason = reason;
  }

  /** A PostgreSQL store ({@code location} is its URL) that this user may not write: {@code why} says so. */
  public static DatabaseNotWritableException readOnly(String location, String why, Throwable cause) {
    return new DatabaseNotWritableException(null, location, Reason.READ_ONLY,
        "The triage store " + location + " is read-only for racetriage (" + why + "). Grant the user write access "
            + "(INSERT, UPDATE, DELETE on the store's tables; CREATE on its schema to create it), or give --db a "
            + "store you can write.",
        cause);
  }

  /** A PostgreSQL store whose rows stayed locked, or whose writers kept conflicting, for longer than racetriage tries. */
  public static DatabaseNotWritableException locked(String location, Duration waited, String what, Throwable cause) {
    return new DatabaseNotWritableException(null, location, Reason.LOCKED,
        "The triage store " + location + " stayed busy with other writers (locked rows or conflicting transactions) "
            + "for longer than " + Math.max(1, waited.toSeconds()) + " s, so racetriage could not " + what
            + ". Run again; if it persists, look for a stuck session (pg_stat_activity).",
        cause);
  }

  /** {@code why} says what is read-only, e.g. "its directory /p/.racetriage is not writable". */
  public static DatabaseNotWritableException readOnly(Path file, String why, Throwable cause) {
    return new DatabaseNotWritableException(file, file.toString(), Reason.READ_ONLY,
        "The triage database " + file + " is read-only (" + why + "). Make it writable, or give --db a file you "
            + "can write.",
        cause);
  }

  /** {@code what} is the operation that waited, e.g. "start a run". */
  public static DatabaseNotWritableException locked(Path file, Duration waited, String what, Throwable cause) {
    return new DatabaseNotWritableException(file, file.toString(), Reason.LOCKED,
        "The triage database " + file + " is locked by another process (a triage, the daemon, or another program "
            + "holding its write lock) for longer than " + Math.max(1, waited.toSeconds()) + " s, so racetriage "
            + "could not " + what + ". Wait for that process to finish, or stop it, and run again.",
        cause);
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
