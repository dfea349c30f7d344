package dev.racetriage.store.engine;

import dev.racetriage.store.DatabaseNotWritableException;
import dev.racetriage.store.StoreException;
import dev.racetriage.store.UnusableDatabaseException;
import dev.racetriage.store.schema.FileState;
import dev.racetriage.store.schema.SchemaIdentity;
import dev.racetriage.store.schema.SchemaInspector;
import dev.racetriage.store.sqlite.SqliteErrors;
import dev.racetriage.store.sqlite.Tx;
import dev.racetriage.store.sqlite.WriteAccess;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.sqlite.SQLiteConfig;

/**
 * One SQLite file: WAL with {@code synchronous=NORMAL}, {@code BEGIN IMMEDIATE} for writers, SQLite's busy timeout
 * and BUSY/LOCKED as "try again", {@code PRAGMA data_version} for change polling, {@code user_version} and
 * {@code application_id} as the schema's version and identity, and foreign keys switched off around schema steps
 * that rebuild a referenced table (SQLite's documented procedure).
 */
public final class SqliteEngine implements Engine {
  private final Path file;
  private final StoreLocation location;

  public SqliteEngine(Path file) {
    this.file = file;
    this.location = StoreLocation.file(file);
  }

  @Override
  public String name() {
    return "sqlite";
  }

  @Override
  public StoreLocation location() {
    return location;
  }

  public Path file() {
    return file;
  }

  @Override
  public FileState inspect(int latestVersion) {
    return SchemaInspector.inspect(file, latestVersion);
  }

  @Override
  public Connection connect(Role role, boolean readOnlyStore, int busyTimeoutMillis) throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setBusyTimeout(busyTimeoutMillis);
    config.enforceForeignKeys(true);
    if (readOnlyStore) {
      config.setReadOnly(true);
    } else if (role == Role.WRITER) {
      config.setJournalMode(SQLiteConfig.JournalMode.WAL);
      // NORMAL is durable across application crashes in WAL mode; only an OS crash may lose the last commits.
      config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    }
    return config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
  }

  @Override
  public String skipLockedRows(String alias) {
    return "";
  }

  @Override
  public String beginWrite() {
    return "BEGIN IMMEDIATE";
  }

  @Override
  public String beginRead() {
    return "BEGIN";
  }

  @Override
  public boolean isRetryable(SQLException error) {
    return SqliteErrors.isBusy(error);
  }

  @Override
  public boolean isConnectionLost(SQLException error) {
    return false; // a file has no connection to lose
  }

  @Override
  public boolean isNotWritable(SQLException error) {
    return SqliteErrors.isReadOnly(error);
  }

  @Override
  public int maxAttempts(Duration lockWait, int busyTimeoutMillis) {
    return (int) Math.max(1, lockWait.toMillis() / busyTimeoutMillis);
  }

  @Override
  public long insert(Tx tx, String sql, Object... args) throws SQLException {
    tx.update(sql, args);
    return tx.queryLong("SELECT last_insert_rowid()");
  }

  @Override
  public long dataVersion(Connection watcher) throws SQLException {
    try (Statement statement = watcher.createStatement();
        ResultSet row = statement.executeQuery("PRAGMA data_version")) {
      row.next();
      return row.getLong(1);
    }
  }

  @Override
  public void proveWritable(Tx tx) throws SQLException {
    // Re-setting the version writes page 1: SQLite reports a read-only file here, not at BEGIN.
    long version = tx.queryLong("PRAGMA user_version");
    Statements.execute(tx.connection(), "PRAGMA user_version = " + version);
  }

  @Override
  public void lockExclusive(Connection writer) {
    // BEGIN IMMEDIATE takes the file's one write lock: no other writer runs meanwhile
  }

  @Override
  public void unlockExclusive(Connection writer) {
  }

  @Override
  public void beforeSchemaChange(Connection writer) throws SQLException {
    // SQLite ignores the switch inside a transaction; with enforcement on, rebuilding a table that others refer to
    // would fire their ON DELETE actions.
    Statements.execute(writer, "PRAGMA foreign_keys = OFF");
  }

  @Override
  public void startSchemaChange(Tx tx) {
    // BEGIN IMMEDIATE already holds the file's write lock: a second process waits and then finds the work done.
  }

  @Override
  public void finishSchemaChange(Tx tx) throws SQLException {
    List<String> broken = tx.query("PRAGMA foreign_key_check",
        row -> row.getString("table") + " row " + row.getLong("rowid") + " -> " + row.getString("parent"));
    if (!broken.isEmpty()) {
      throw new SQLException("foreign keys broken: " + String.join(", ", broken.subList(0, Math.min(5, broken.size()))));
    }
  }

  @Override
  public void afterSchemaChange(Connection writer) throws SQLException {
    Statements.execute(writer, "PRAGMA foreign_keys = ON");
  }

  @Override
  public int schemaVersion(Tx tx) throws SQLException {
    boolean identified = tx.queryLong("PRAGMA application_id") == SchemaIdentity.APPLICATION_ID;
    return identified ? (int) tx.queryLong("PRAGMA user_version") : -1;
  }

  @Override
  public void setSchemaVersion(Tx tx, int version) throws SQLException {
    Statements.execute(tx.connection(), "PRAGMA user_version = " + version);
    Statements.execute(tx.connection(), "PRAGMA application_id = " + SchemaIdentity.APPLICATION_ID);
  }

  @Override
  public List<String> integrityProblems(Tx tx) throws SQLException {
    List<String> answer = tx.query("PRAGMA quick_check(5)", row -> row.getString(1));
    return answer.equals(List.of("ok")) ? List.of() : answer;
  }

  @Override
  public String ddl(String statement) {
    return statement; // the bundled steps are written in SQLite's dialect
  }

  @Override
  public StoreException translate(SQLException e, String what, Duration lockWait) {
    if (SqliteErrors.isCorrupt(e) || SqliteErrors.isNotADatabase(e)) {
      return new UnusableDatabaseException(file, UnusableDatabaseException.Reason.CORRUPT,
          UnusableDatabaseException.corruptMessage(file, e.getMessage()), e);
    }
    if (SqliteErrors.isBusy(e)) {
      return DatabaseNotWritableException.locked(file, lockWait, what, e);
    }
    return WriteAccess.readOnly(file, e)
        .<StoreException>map(reason -> reason)
        .orElseGet(() -> new StoreException("cannot " + what + " in " + file + ": " + e.getMessage(), e));
  }
}
