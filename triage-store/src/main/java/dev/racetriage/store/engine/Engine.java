package dev.racetriage.store.engine;

import dev.racetriage.store.StoreException;
import dev.racetriage.store.schema.FileState;
import dev.racetriage.store.sqlite.Tx;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * Everything about a triage store that depends on the database engine, in one place, so that the repositories and
 * {@link dev.racetriage.store.sqlite.Database}'s unit-of-work rules are written once for SQLite and PostgreSQL:
 * connecting, how a unit of work begins, which failures mean "try the whole unit again", new row ids, the number that
 * changes on every commit (for polling readers), proving the store writable, the schema's version record, the
 * dialect of schema steps, and turning SQL failures into the store's exceptions.
 */
public interface Engine {
  /** What a connection is for. */
  enum Role {
    /** The one connection a process writes through. */
    WRITER,
    /** A pooled connection for read units of work. */
    READER,
    /** The connection that only reads {@link #dataVersion}. */
    WATCHER
  }

  /** {@code sqlite} or {@code postgresql}: also the suffix of a schema step written for one engine only. */
  String name();

  StoreLocation location();

  /** What a check finds before anything is written: nothing yet, or a version. */
  FileState inspect(int latestVersion);

  Connection connect(Role role, boolean readOnlyStore, int busyTimeoutMillis) throws SQLException;

  /**
   * What a claimer's {@code SELECT} of candidate rows (table alias {@code alias}) ends with, so that concurrent
   * claimers pass over rows another has locked instead of colliding on them: {@code FOR UPDATE OF a SKIP LOCKED}
   * where the engine has row locks, nothing where writers are serialised anyway (SQLite).
   */
  String skipLockedRows(String alias);

  /** The statement that starts a write unit of work (taking the write lock up front where the engine has one). */
  String beginWrite();

  /** The statement that starts a read unit of work on one consistent snapshot. */
  String beginRead();

  /** Whether the whole unit of work should be rolled back and run again: the engine's "busy, try again". */
  boolean isRetryable(SQLException error);

  /**
   * Whether {@code error} means the connection to the store is gone (a server restarted or ended the session): the
   * unit of work is run again on a new connection.
   */
  boolean isConnectionLost(SQLException error);

  /** Whether {@code error} means this process may not write the store (read-only file, role or server). */
  boolean isNotWritable(SQLException error);

  /** How many times a unit of work is tried before its failure is reported. */
  int maxAttempts(Duration lockWait, int busyTimeoutMillis);

  /** Runs an INSERT into a table with an {@code id} key and returns the new row's id. */
  long insert(Tx tx, String sql, Object... args) throws SQLException;

  /**
   * A number that changes whenever anything is committed to the store by any process, read on {@code watcher}
   * (a connection that never writes); equal values mean nothing changed in between.
   */
  long dataVersion(Connection watcher) throws SQLException;

  /**
   * Inside a write transaction: makes a change that needs write access and lets the caller roll it back, so a
   * read-only store is reported before long work starts.
   */
  void proveWritable(Tx tx) throws SQLException;

  /**
   * Outside any transaction, before each attempt of a unit of work that changes something outside the store too:
   * keeps every other such unit, in any process, waiting until {@link #unlockExclusive}.
   */
  void lockExclusive(Connection writer) throws SQLException;

  /** Ends {@link #lockExclusive}. */
  void unlockExclusive(Connection writer) throws SQLException;

  /** Outside any transaction, before a schema change (SQLite: foreign-key enforcement off). */
  void beforeSchemaChange(Connection writer) throws SQLException;

  /** Inside the schema change's transaction, first (PostgreSQL: one migrating process at a time). */
  void startSchemaChange(Tx tx) throws SQLException;

  /** Inside the schema change's transaction, before its commit (SQLite: every foreign key checked). */
  void finishSchemaChange(Tx tx) throws SQLException;

  /** After the schema change, committed or not. */
  void afterSchemaChange(Connection writer) throws SQLException;

  /** The racetriage schema version of the store, or -1 if it does not carry racetriage's identity yet. */
  int schemaVersion(Tx tx) throws SQLException;

  /** Records {@code version} and racetriage's identity (inside the schema change's transaction). */
  void setSchemaVersion(Tx tx, int version) throws SQLException;

  /**
   * What a check of the store's pages finds wrong, empty if nothing (SQLite's {@code quick_check}: every page and
   * b-tree read once, without comparing indexes to their tables; a server checks its own pages).
   */
  List<String> integrityProblems(Tx tx) throws SQLException;

  /** A schema statement, as written in the bundled steps, in this engine's dialect. */
  String ddl(String statement);

  /** The store's exception for {@code error}, naming the store and {@code what} was being done. */
  StoreException translate(SQLException error, String what, Duration lockWait);

  /** The engine of {@code location}. */
  static Engine of(StoreLocation location) {
    if (location instanceof StoreLocation.Postgres postgres) {
      return new PostgresEngine(postgres);
    }
    return new SqliteEngine(((StoreLocation.SqliteFile) location).file());
  }
}
