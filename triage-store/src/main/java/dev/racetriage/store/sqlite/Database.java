package dev.racetriage.store.sqlite;

import dev.racetriage.store.StoreException;
import dev.racetriage.store.engine.Engine;
import dev.racetriage.store.engine.SqliteEngine;
import dev.racetriage.store.engine.StoreLocation;
import java.nio.file.Path;
import java.sql.Connection;
import dev.racetriage.store.DatabaseNotWritableException;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The connections to one triage store and the rule for using them: every unit of work is one transaction. What
 * differs between SQLite and PostgreSQL (connecting, how a transaction begins, which failures are retried, ids,
 * change polling, error messages) is the {@link Engine}'s; the rules below hold for both.
 *
 * <p>Writers take {@code BEGIN IMMEDIATE}, so a writer waits for the file's write lock up front (under SQLite's busy
 * timeout) instead of failing half-way when it upgrades a read lock. Readers use deferred transactions on their own
 * connections; in WAL mode they see a consistent snapshot and do not block the writer. If SQLite still reports BUSY
 * (another process held the lock for longer than the timeout, or a WAL recovery was running), the whole unit of work
 * is rolled back and run again a bounded number of times, so "database is locked" does not reach a user.
 *
 * <p>A unit of work started on a thread that is already inside one joins it, which lets a caller group several
 * repository calls into one transaction with {@link #write}.
 *
 * <p>{@link #openReadOnly} opens every connection with SQLite's read-only flag and no writer at all, for a process
 * that must not change the file (the dashboard's reads); its writes throw {@link IllegalStateException}.
 */
public final class Database implements AutoCloseable {
  /** How long a unit of work waits, in all, for another process's write lock before it is reported LOCKED. */
  public static final Duration DEFAULT_LOCK_WAIT = Duration.ofSeconds(40);
  /** SQLite's own wait per attempt; between attempts the whole unit of work is rolled back and re-run. */
  private static final long MAX_BUSY_TIMEOUT_MILLIS = 5_000;
  private static final int MAX_IDLE_READERS = 4;

  private final Engine engine;
  private final Clock clock;
  private final Duration lockWait;
  private final int busyTimeoutMillis;
  private final int maxAttempts;
  private final ReentrantLock writeLock = new ReentrantLock(true);
  private final ConcurrentLinkedDeque<Connection> idleReaders = new ConcurrentLinkedDeque<>();
  private final ThreadLocal<Tx> current = new ThreadLocal<>();
  private final boolean readOnly;
  /** Null when read-only. Replaced (under {@link #writeLock}) when the server dropped it. */
  private Connection writer;
  /** Set when a unit of work found the connection to a server lost: the next write reconnects first. */
  private volatile boolean writerLost;
  private Connection watcher;
  private volatile boolean closed;

  private Database(Engine engine, Clock clock, Duration lockWait, boolean readOnly) {
    this.engine = engine;
    this.clock = clock;
    this.lockWait = lockWait;
    this.readOnly = readOnly;
    this.busyTimeoutMillis = (int) Math.max(1, Math.min(MAX_BUSY_TIMEOUT_MILLIS, lockWait.toMillis()));
    this.maxAttempts = engine.maxAttempts(lockWait, busyTimeoutMillis);
    try {
      this.writer = readOnly ? null : connect(Engine.Role.WRITER);
    } catch (SQLException e) {
      throw translate(e, "open");
    }
  }

  /**
   * Opens the file for reading and writing and switches it to WAL. Only call this once the file is known to be a
   * racetriage database or empty: setting the journal mode writes to the file.
   */
  public static Database open(Path file, Clock clock) {
    return open(file, clock, DEFAULT_LOCK_WAIT);
  }

  /** As {@link #open(Path, Clock)}, waiting at most about {@code lockWait} for another process's write lock. */
  public static Database open(Path file, Clock clock, Duration lockWait) {
    return open(new SqliteEngine(file), clock, lockWait);
  }

  /** Opens the store at {@code location} (a file or a PostgreSQL database) for reading and writing. */
  public static Database open(StoreLocation location, Clock clock) {
    return open(Engine.of(location), clock, DEFAULT_LOCK_WAIT);
  }

  /** Opens the store of {@code engine} for reading and writing. */
  public static Database open(Engine engine, Clock clock, Duration lockWait) {
    if (lockWait.isNegative() || lockWait.isZero()) {
      throw new IllegalArgumentException("lockWait must be positive: " + lockWait);
    }
    return new Database(engine, clock, lockWait, false);
  }

  /**
   * Opens an existing file for reading only: nothing is written to it, not even the journal mode. SQLite may still
   * create the {@code -wal}/{@code -shm} files beside a WAL database, which every reader needs.
   */
  public static Database openReadOnly(Path file, Clock clock) {
    return openReadOnly(new SqliteEngine(file), clock);
  }

  /** Opens the store of {@code engine} for reading only; its writes throw {@link IllegalStateException}. */
  public static Database openReadOnly(Engine engine, Clock clock) {
    return new Database(engine, clock, DEFAULT_LOCK_WAIT, true);
  }

  public boolean readOnly() {
    return readOnly;
  }

  /** The SQLite file, or null for a PostgreSQL store (see {@link #location}). */
  public Path file() {
    return engine.location().fileOrNull();
  }

  public StoreLocation location() {
    return engine.location();
  }

  public Engine engine() {
    return engine;
  }

  public Clock clock() {
    return clock;
  }

  /** Runs {@code work} in a write transaction (or inside the current one) and commits it. */
  public <T> T write(String what, SqlWork<T> work) {
    Tx outer = current.get();
    if (outer != null) {
      if (!outer.writable()) {
        throw new IllegalStateException("cannot " + what + " inside a read-only unit of work");
      }
      return runJoined(outer, what, work);
    }
    requireWriter(what);
    return withRetry(what, () -> writeOnce(work));
  }

  /**
   * As {@link #write}, for a unit of work that also changes something outside the store (the marks mirror file): no
   * two such units run at once in any process, and the exclusion lasts over the unit's retries, so no other process
   * reads what a rolled-back attempt left outside the store before the retry puts it right. (SQLite's write lock
   * already excludes every other writer; PostgreSQL's transactions run side by side, so its engine takes a lock.)
   * Inside an outer unit of work it joins that one and takes nothing.
   */
  public <T> T writeExclusive(String what, SqlWork<T> work) {
    if (current.get() != null) {
      return write(what, work);
    }
    requireWriter(what);
    writeLock.lock();
    Connection[] locked = {null}; // the writer connection whose session holds the exclusion
    try {
      return withRetry(what, () -> {
        Connection writer = writer();
        if (locked[0] != writer) {
          engine.lockExclusive(writer);
          locked[0] = writer;
        }
        return writeOnce(work);
      });
    } finally {
      try {
        if (locked[0] != null && locked[0] == writer && !writerLost) {
          engine.unlockExclusive(locked[0]);
        }
      } catch (SQLException e) {
        writerLost = true; // the session (and with it the lock) is gone; the next write reconnects
      } finally {
        writeLock.unlock();
      }
    }
  }

  private void requireWriter(String what) {
    if (readOnly) {
      throw new IllegalStateException("cannot " + what + ": the triage database " + location().display() + " was opened read-only");
    }
  }

  /**
   * Runs a schema change: in a write transaction that no other process's schema change overlaps, with what the engine
   * needs around it (SQLite: foreign-key enforcement off, and every foreign key checked before committing, so a step
   * may rebuild a table that others refer to — with enforcement on, dropping the old table would fire their ON DELETE
   * actions). SQLite ignores that switch inside a transaction, so this cannot join an outer unit of work.
   */
  public <T> T writeWithoutForeignKeys(String what, SqlWork<T> work) {
    if (current.get() != null) {
      throw new IllegalStateException("cannot " + what + " inside another unit of work");
    }
    requireWriter(what);
    return withRetry(what, () -> {
      writeLock.lock();
      try {
        Connection writer = writer();
        engine.beforeSchemaChange(writer);
        try {
          execute(writer, engine.beginWrite());
          return runAndCommit(writer, newTx(writer, true), tx -> {
            engine.startSchemaChange(tx);
            T result = work.run(tx);
            engine.finishSchemaChange(tx);
            return result;
          });
        } finally {
          engine.afterSchemaChange(writer);
        }
      } finally {
        writeLock.unlock();
      }
    });
  }

  /**
   * Proves, before any long work, that this process can write the file: takes the write lock as any writer would
   * (waiting for another process as long as a write would), makes a change that writes a page, and rolls it back, so
   * the file is left as it was. Throws {@link DatabaseNotWritableException} if the file, its directory or its file
   * system is read-only, or another process keeps the write lock.
   */
  public void requireWritable() {
    requireWriter("write to the triage database");
    withRetry("write to the triage database", () -> {
      writeLock.lock();
      try {
        Connection writer = writer();
        execute(writer, engine.beginWrite());
        try {
          engine.proveWritable(newTx(writer, true));
        } finally {
          rollbackQuietly(writer);
        }
        return null;
      } finally {
        writeLock.unlock();
      }
    });
  }

  /** Runs {@code work} in a read transaction on a snapshot of the database (or inside the current transaction). */
  public <T> T read(String what, SqlWork<T> work) {
    Tx outer = current.get();
    if (outer != null) {
      return runJoined(outer, what, work);
    }
    return withRetry(what, () -> readOnce(work));
  }

  private <T> T runJoined(Tx outer, String what, SqlWork<T> work) {
    try {
      return work.run(outer);
    } catch (SQLException e) {
      // The outermost unit of work decides whether to retry; carry the SQL error to it unchanged.
      throw new NestedSqlFailure(e);
    }
  }

  private interface Attempt<T> {
    T run() throws SQLException;
  }

  private <T> T withRetry(String what, Attempt<T> attempt) {
    for (int attemptNo = 1; ; attemptNo++) {
      ensureOpen();
      try {
        return attempt.run();
      } catch (SQLException | NestedSqlFailure e) {
        SQLException cause = e instanceof NestedSqlFailure nested ? nested.getCause() : (SQLException) e;
        if (engine.isConnectionLost(cause)) {
          // a server restarted or dropped this session: the next attempt runs on a new connection
          writerLost = true;
        }
        if ((engine.isRetryable(cause) || engine.isConnectionLost(cause)) && attemptNo < maxAttempts) {
          backOff(attemptNo);
          continue;
        }
        throw translate(cause, what);
      }
    }
  }

  private <T> T writeOnce(SqlWork<T> work) throws SQLException {
    writeLock.lock();
    try {
      Connection writer = writer();
      execute(writer, engine.beginWrite());
      return runAndCommit(writer, newTx(writer, true), work);
    } finally {
      writeLock.unlock();
    }
  }

  private <T> T readOnce(SqlWork<T> work) throws SQLException {
    Connection connection = idleReaders.poll();
    if (connection == null) {
      connection = connect(Engine.Role.READER);
    }
    boolean reusable = false;
    try {
      execute(connection, engine.beginRead());
      T result = runAndCommit(connection, newTx(connection, false), work);
      reusable = true;
      return result;
    } finally {
      release(connection, reusable);
    }
  }

  private <T> T runAndCommit(Connection connection, Tx tx, SqlWork<T> work) throws SQLException {
    current.set(tx);
    boolean committed = false;
    try {
      T result = work.run(tx);
      execute(connection, "COMMIT");
      committed = true;
      return result;
    } finally {
      current.remove();
      if (!committed) {
        rollbackQuietly(connection);
      }
    }
  }

  private void release(Connection connection, boolean reusable) {
    if (reusable && !closed && idleReaders.size() < MAX_IDLE_READERS) {
      idleReaders.push(connection);
    } else {
      closeQuietly(connection);
    }
  }

  private static void backOff(int attemptNo) {
    long millis = Math.min(1_000, 25L << attemptNo) + ThreadLocalRandom.current().nextLong(25);
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException("interrupted while waiting for the triage database", e);
    }
  }

  /**
   * A number that changes whenever any connection, in this process or another, commits to the store (SQLite:
   * {@code PRAGMA data_version}; PostgreSQL: the server's transaction snapshot), read on a connection of its own that
   * never writes. Readers poll it to learn cheaply that the daemon or a teammate's action changed something.
   */
  public synchronized long dataVersion() {
    ensureOpen();
    try {
      return readDataVersion();
    } catch (SQLException lost) {
      if (!engine.isConnectionLost(lost)) {
        throw translate(lost, "read the data version");
      }
      closeQuietly(watcher);
      watcher = null; // a server restarted or ended the session: once more, on a new connection
      try {
        return readDataVersion();
      } catch (SQLException e) {
        throw translate(e, "read the data version");
      }
    }
  }

  private long readDataVersion() throws SQLException {
    if (watcher == null) {
      watcher = connect(Engine.Role.WATCHER);
    }
    return engine.dataVersion(watcher);
  }


  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("the triage store for " + location().display() + " is closed");
    }
  }

  /**
   * A new connection. Opening one runs pragmas (SQLite's journal mode among them) that can meet another process's lock
   * before the connection's busy timeout applies, and then fail at once with SQLITE_BUSY: a lock is waited for here
   * too, up to {@link #lockWait}, as every write waits for it.
   */
  private Connection connect(Engine.Role role) throws SQLException {
    long deadline = System.nanoTime() + lockWait.toNanos();
    for (int attempt = 1; ; attempt++) {
      try {
        return engine.connect(role, readOnly, busyTimeoutMillis);
      } catch (SQLException e) {
        if (!engine.isRetryable(e) || System.nanoTime() - deadline >= 0) {
          throw e;
        }
        backOff(attempt);
      }
    }
  }

  /** The writer connection, made anew if the last unit of work lost it (call under {@link #writeLock}). */
  private Connection writer() throws SQLException {
    if (writerLost) {
      closeQuietly(writer);
      writer = connect(Engine.Role.WRITER);
      writerLost = false;
    }
    return writer;
  }

  private Tx newTx(Connection connection, boolean writable) {
    return new Tx(connection, writable, clock, engine);
  }

  private static void execute(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  private static void rollbackQuietly(Connection connection) {
    try {
      execute(connection, "ROLLBACK");
    } catch (SQLException ignored) {
      // No transaction was open (BEGIN itself failed) or SQLite already rolled it back.
    }
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // Closing is best effort; the file stays consistent either way.
    }
  }

  /** Turns an SQL failure into the store's exceptions, naming the store and the operation. */
  private StoreException translate(SQLException e, String what) {
    return engine.translate(e, what, lockWait);
  }

  @Override
  public void close() {
    closed = true;
    writeLock.lock();
    try {
      if (writer != null) {
        closeQuietly(writer);
      }
    } finally {
      writeLock.unlock();
    }
    for (Connection connection; (connection = idleReaders.poll()) != null; ) {
      closeQuietly(connection);
    }
    synchronized (this) {
      if (watcher != null) {
        closeQuietly(watcher);
      }
    }
  }

  /** Carries an SQL failure of a joined unit of work out to the outermost one. */
  private static final class NestedSqlFailure extends RuntimeException {
    NestedSqlFailure(SQLException cause) {
      super(cause);
    }

    @Override
    public synchronized SQLException getCause() {
      return (SQLException) super.getCause();
    }
  }
}
