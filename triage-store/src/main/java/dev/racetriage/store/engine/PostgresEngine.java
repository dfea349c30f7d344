package dev.racetriage.store.engine;

import dev.racetriage.store.DatabaseNotWritableException;
import dev.racetriage.store.StoreException;
import dev.racetriage.store.UnusableDatabaseException;
import dev.racetriage.store.schema.FileState;
import dev.racetriage.store.schema.SchemaIdentity;
import dev.racetriage.store.sqlite.Tx;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A PostgreSQL database shared by a team. Write units of work run SERIALIZABLE, so every repository's
 * read-then-write logic behaves as under SQLite's single writer; a serialization failure or deadlock (SQLSTATE 40001,
 * 40P01) or a lock wait past {@code lock_timeout} (55P03) rolls the unit back and runs it again, so "could not
 * serialize access" never reaches a user. Reads run REPEATABLE READ READ ONLY: one snapshot per unit of work.
 *
 * <p>The schema's version and identity live in the one-row table {@code racetriage_schema} (SQLite keeps them in the
 * file header). Schema steps are the SQLite ones with their types rewritten ({@link #ddl}); a step that SQLite can only
 * do by rebuilding a table has a {@code .postgresql.sql} variant. Text columns collate as "C", byte order, as SQLite's
 * BINARY does, so lists sort the same on both engines whatever the database's locale.
 *
 * <p>Change polling reads the server's transaction snapshot ({@code txid_current_snapshot()}): it changes whenever a
 * writing transaction ends anywhere on the server, so a reader may reload for a commit to another database, but never
 * misses one to this store, and no write has to bump a shared counter row (which would serialize every writer).
 */
public final class PostgresEngine implements Engine {
  /** SQLSTATEs after which the whole unit of work is run again. */
  private static final Set<String> RETRYABLE = Set.of("40001", "40P01", "55P03");
  private static final Set<String> NOT_WRITABLE = Set.of("42501", "25006");
  private static final Set<String> UNREACHABLE = Set.of("08001", "08006", "08003", "57P01", "57P02", "57P03");
  private static final Set<String> AUTHENTICATION = Set.of("28P01", "28000", "08004");
  private static final String VERSION_TABLE = "racetriage_schema";
  private static final int MIN_ATTEMPTS = 20;

  private static final Pattern ID_KEY = Pattern.compile("\\bid\\s+INTEGER\\s+PRIMARY\\s+KEY\\b");
  private static final Pattern INTEGER = Pattern.compile("\\bINTEGER\\b");
  private static final Pattern REAL = Pattern.compile("\\bREAL\\b");
  private static final Pattern TEXT = Pattern.compile("\\bTEXT\\b");
  private static final Pattern WITHOUT_ROWID = Pattern.compile("\\)\\s*WITHOUT\\s+ROWID");

  private final StoreLocation.Postgres location;

  public PostgresEngine(StoreLocation.Postgres location) {
    this.location = location;
  }

  @Override
  public String name() {
    return "postgresql";
  }

  @Override
  public StoreLocation location() {
    return location;
  }

  @Override
  public FileState inspect(int latestVersion) {
    try (Connection connection = connect(Role.READER, true, 5_000)) {
      String schema = queryString(connection, "SELECT current_schema()");
      if (schema == null) {
        throw new StoreException("the PostgreSQL database of " + location.url() + " has no schema to keep the triage "
            + "store in (the search path names none that exists): create it (CREATE SCHEMA name) or fix the URL's "
            + "currentSchema.");
      }
      // one statement, one snapshot: a second process creating the store at this moment (one transaction: its
      // tables and the version table appear together) is either wholly seen or not at all — checking the version
      // table first and the other tables after could see its tables without the version table in between
      List<String> tables = new ArrayList<>();
      try (Statement statement = connection.createStatement();
          ResultSet rows = statement.executeQuery("SELECT table_name FROM information_schema.tables"
              + " WHERE table_schema = current_schema() ORDER BY table_name")) {
        while (rows.next()) {
          tables.add(rows.getString(1));
        }
      }
      if (tables.contains(VERSION_TABLE)) {
        long applicationId;
        int version;
        try (Statement statement = connection.createStatement();
            ResultSet row = statement.executeQuery("SELECT application_id, version FROM " + VERSION_TABLE)) {
          if (!row.next()) {
            return FileState.freshFile(); // a creation that never committed its version
          }
          applicationId = row.getLong(1);
          version = row.getInt(2);
        }
        if (applicationId != SchemaIdentity.APPLICATION_ID) {
          throw foreign(schema, List.of(VERSION_TABLE));
        }
        if (version > latestVersion) {
          throw new UnusableDatabaseException(location.url(), UnusableDatabaseException.Reason.NEWER_SCHEMA,
              "the triage store " + location.url() + " was written by a newer racetriage (schema version " + version
                  + "; this version knows up to " + latestVersion + "). Upgrade racetriage. Nothing was changed.",
              null);
        }
        return FileState.racetriage(version);
      }
      if (!tables.isEmpty()) {
        throw foreign(schema, tables);
      }
      return FileState.freshFile();
    } catch (SQLException e) {
      throw translate(e, "open the triage store", Duration.ZERO);
    }
  }

  private UnusableDatabaseException foreign(String schema, List<String> tables) {
    List<String> shown = tables.subList(0, Math.min(5, tables.size()));
    return new UnusableDatabaseException(location.url(), UnusableDatabaseException.Reason.FOREIGN,
        "the schema " + schema + " of " + location.url() + " holds tables racetriage did not create ("
            + String.join(", ", shown) + (tables.size() > shown.size() ? ", ..." : "") + "). Keep the store in a "
            + "schema of its own (CREATE SCHEMA racetriage, and add &currentSchema=racetriage to the URL) or another "
            + "database. Nothing was changed.",
        null);
  }

  @Override
  public Connection connect(Role role, boolean readOnlyStore, int busyTimeoutMillis) throws SQLException {
    Properties properties = new Properties();
    String password = System.getenv(StoreLocation.Postgres.PASSWORD_VARIABLE);
    if (password != null && !password.isEmpty()) {
      properties.setProperty("password", password);
    } // else the driver looks in ~/.pgpass (or PGPASSFILE) itself
    properties.setProperty("ApplicationName", "racetriage");
    properties.setProperty("connectTimeout", "10");
    Connection connection = new org.postgresql.Driver().connect(location.url(), properties);
    if (connection == null) {
      throw new SQLException("the PostgreSQL driver does not accept the URL " + location.url(), "08001");
    }
    try (Statement statement = connection.createStatement()) {
      // A row lock held longer than this fails the attempt (55P03), which is retried like a serialization failure.
      statement.execute("SET lock_timeout = " + busyTimeoutMillis);
      if (readOnlyStore) {
        statement.execute("SET default_transaction_read_only = on");
      }
    } catch (SQLException e) {
      connection.close();
      throw e;
    }
    return connection;
  }

  @Override
  public String skipLockedRows(String alias) {
    return " FOR UPDATE OF " + alias + " SKIP LOCKED";
  }

  @Override
  public String beginWrite() {
    return "BEGIN ISOLATION LEVEL SERIALIZABLE";
  }

  @Override
  public String beginRead() {
    return "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";
  }

  @Override
  public boolean isRetryable(SQLException error) {
    return RETRYABLE.contains(sqlState(error));
  }

  @Override
  public boolean isConnectionLost(SQLException error) {
    return UNREACHABLE.contains(sqlState(error));
  }

  @Override
  public boolean isNotWritable(SQLException error) {
    return NOT_WRITABLE.contains(sqlState(error));
  }

  @Override
  public int maxAttempts(Duration lockWait, int busyTimeoutMillis) {
    return (int) Math.max(MIN_ATTEMPTS, lockWait.toMillis() / busyTimeoutMillis);
  }

  @Override
  public long insert(Tx tx, String sql, Object... args) throws SQLException {
    return tx.queryOne(sql + " RETURNING id", row -> row.getLong(1), args).orElseThrow();
  }

  @Override
  public long dataVersion(Connection watcher) throws SQLException {
    String snapshot = queryString(watcher, "SELECT txid_current_snapshot()::text");
    // FNV-1a: equal snapshots give equal numbers; any commit changes the snapshot (xmax or the in-progress list).
    long hash = 0xcbf29ce484222325L;
    for (byte b : snapshot.getBytes(StandardCharsets.US_ASCII)) {
      hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
    }
    return hash;
  }

  @Override
  public void proveWritable(Tx tx) throws SQLException {
    if (versionTable(tx) != null) {
      tx.update("UPDATE " + VERSION_TABLE + " SET version = version");
    } else {
      tx.update("CREATE TABLE racetriage_write_check (id INTEGER)"); // rolled back: the role may create the schema
    }
  }

  /** The advisory lock key of units with effects outside the store ("Rtrm"): the marks mirror file. */
  private static final long EXCLUSIVE_KEY = 0x5274726dL;

  @Override
  public void lockExclusive(Connection writer) throws SQLException {
    // a session lock, taken before the transaction begins, so the transaction's snapshot sees the last holder's work
    Statements.execute(writer, "SELECT pg_advisory_lock(" + EXCLUSIVE_KEY + ")");
  }

  @Override
  public void unlockExclusive(Connection writer) throws SQLException {
    Statements.execute(writer, "SELECT pg_advisory_unlock(" + EXCLUSIVE_KEY + ")");
  }

  @Override
  public void beforeSchemaChange(Connection writer) throws SQLException {
    // Taken before the transaction begins, so that its snapshot already sees what a migrating process committed.
    Statements.execute(writer, "SELECT pg_advisory_lock(" + SchemaIdentity.APPLICATION_ID + ")");
  }

  @Override
  public void startSchemaChange(Tx tx) {
    // the session lock of beforeSchemaChange already keeps other processes out
  }

  @Override
  public void finishSchemaChange(Tx tx) {
    // PostgreSQL enforces foreign keys during the steps themselves
  }

  @Override
  public void afterSchemaChange(Connection writer) throws SQLException {
    Statements.execute(writer, "SELECT pg_advisory_unlock(" + SchemaIdentity.APPLICATION_ID + ")");
  }

  @Override
  public int schemaVersion(Tx tx) throws SQLException {
    if (versionTable(tx) == null) {
      return -1;
    }
    return tx.queryOne("SELECT version FROM " + VERSION_TABLE + " WHERE application_id = ?", row -> row.getInt(1),
        (long) SchemaIdentity.APPLICATION_ID).orElse(-1);
  }

  @Override
  public void setSchemaVersion(Tx tx, int version) throws SQLException {
    tx.update("CREATE TABLE IF NOT EXISTS " + VERSION_TABLE
        + " (application_id BIGINT NOT NULL, version INTEGER NOT NULL)");
    tx.update("DELETE FROM " + VERSION_TABLE);
    tx.update("INSERT INTO " + VERSION_TABLE + "(application_id, version) VALUES (?, ?)",
        (long) SchemaIdentity.APPLICATION_ID, version);
  }

  @Override
  public List<String> integrityProblems(Tx tx) {
    return List.of(); // the server keeps its own pages (and checksums them, where the cluster was made so)
  }

  /**
   * The bundled steps' SQLite types in PostgreSQL: an {@code id INTEGER PRIMARY KEY} (SQLite's rowid) becomes an
   * identity column, every INTEGER a BIGINT (times are epoch milliseconds), REAL a double, TEXT a text that
   * compares byte by byte as SQLite's does, and WITHOUT ROWID (a SQLite storage choice) is dropped.
   */
  @Override
  public String ddl(String statement) {
    String sql = ID_KEY.matcher(statement).replaceAll("id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY");
    sql = INTEGER.matcher(sql).replaceAll("BIGINT");
    sql = REAL.matcher(sql).replaceAll("DOUBLE PRECISION");
    sql = TEXT.matcher(sql).replaceAll("TEXT COLLATE \"C\"");
    return WITHOUT_ROWID.matcher(sql).replaceAll(")");
  }

  @Override
  public StoreException translate(SQLException e, String what, Duration lockWait) {
    String state = sqlState(e);
    String url = location.url();
    String detail = e.getMessage() == null ? state : e.getMessage().strip();
    if (NOT_WRITABLE.contains(state)) {
      return DatabaseNotWritableException.readOnly(url, "user " + location.userOrDefault() + " may not write it; "
          + "PostgreSQL: " + detail, e);
    }
    if (RETRYABLE.contains(state)) {
      return DatabaseNotWritableException.locked(url, lockWait, what, e);
    }
    if (UNREACHABLE.contains(state)) {
      return new StoreException("cannot reach the PostgreSQL server of the triage store " + url + " (" + detail
          + "). Check that the server is running and that the URL's host and port are right.", e);
    }
    if (AUTHENTICATION.contains(state)) {
      return new StoreException("PostgreSQL did not let user " + location.userOrDefault() + " into the triage store "
          + url + " (" + detail + "). Set " + StoreLocation.Postgres.PASSWORD_VARIABLE + " to the user's password, "
          + "or add a line host:port:database:user:password to ~/.pgpass (mode 0600); never put it in the URL.", e);
    }
    if ("3D000".equals(state)) {
      return new StoreException("the PostgreSQL server of " + url + " has no database " + location.database()
          + " (" + detail + "). Create it (createdb -O " + location.userOrDefault() + " " + location.database()
          + ") or fix the URL.", e);
    }
    return new StoreException("cannot " + what + " in the triage store " + url + ": " + detail, e);
  }

  /** The version table's name if it exists in the current schema, else null. */
  private static String versionTable(Tx tx) throws SQLException {
    return tx.query("SELECT to_regclass('" + VERSION_TABLE + "')::text", row -> row.getString(1)).get(0);
  }

  private static String sqlState(SQLException error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && sql.getSQLState() != null) {
        return sql.getSQLState();
      }
    }
    return "";
  }

  private static String queryString(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(sql)) {
      return row.next() ? row.getString(1) : null;
    }
  }
}
