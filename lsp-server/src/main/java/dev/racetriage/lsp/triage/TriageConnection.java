package dev.racetriage.lsp.triage;

import dev.racetriage.lsp.lifecycle.ClientLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.lsp4j.MessageType;

/**
 * The server's one connection to the triage database. Only the store poller opens it ({@link #connectIfNeeded}):
 * opening a locked database can wait out SQLite's busy timeouts, and the analysis thread must never wait for that,
 * so it reads through whatever connection is open and otherwise shows static candidates alone. A database that does
 * not exist yet (no daemon has run) is simply "no verdicts"; one that cannot be opened (locked, corrupt, from a newer
 * version) is reported once and retried at the next poll, so the editor recovers by itself when the daemon releases
 * it. User actions (mark, triage now) open, and create, it on their own thread.
 */
public final class TriageConnection implements AutoCloseable {
  private final TriageDatabaseOpener opener;
  private final ClientLog log;
  private Path workspaceRoot;
  private Path location;
  private volatile TriageDatabase open;
  private boolean closed;

  public TriageConnection(TriageDatabaseOpener opener, ClientLog log) {
    this.opener = opener;
    this.log = log;
  }

  /** Points the connection at a (possibly different) database; the old one is closed. */
  public synchronized void configure(Path databaseFile, Path workspace) {
    if (databaseFile.equals(location) && workspace.equals(workspaceRoot)) {
      return;
    }
    closeQuietly();
    this.location = databaseFile;
    this.workspaceRoot = workspace;
  }

  /** The open database for reading, without ever waiting to open one. */
  public Optional<TriageDatabase> forReading() {
    return Optional.ofNullable(open);
  }

  /** Opens the database if it exists and is not open yet (the poller's job). */
  public void connectIfNeeded() {
    if (open == null) {
      connect(false);
    }
  }

  /** The database for a user action (mark, triage now): created if missing, and a failure is the caller's to show. */
  public synchronized TriageDatabase forWriting() {
    if (location == null) {
      throw new IllegalStateException("no workspace folder is open, so there is no triage database to write to");
    }
    if (closed) {
      throw new IllegalStateException("the server is shutting down");
    }
    if (open == null) {
      open = opener.open(location, workspaceRoot, true);
    }
    return open;
  }

  /** Runs a read, reconnecting next time if the database failed under it (the daemon may have replaced it). */
  public <T> Optional<T> read(Function<TriageDatabase, T> query) {
    Optional<TriageDatabase> db = forReading();
    if (db.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable(query.apply(db.get()));
    } catch (RuntimeException e) {
      log.showOnce("read:" + location, MessageType.Warning,
          "racetriage: cannot read the triage database " + location + ": " + e.getMessage()
              + ". Verdicts are not shown until it is readable again (is another program holding a write lock?).");
      synchronized (this) {
        closeQuietly();
      }
      return Optional.empty();
    }
  }

  private synchronized Optional<TriageDatabase> connect(boolean create) {
    if (open != null) {
      return Optional.of(open);
    }
    if (closed || location == null || (!create && !Files.exists(location))) {
      return Optional.empty();
    }
    try {
      open = opener.open(location, workspaceRoot, create);
      log.info("racetriage: reading verdicts from " + location);
      return Optional.of(open);
    } catch (RuntimeException | LinkageError e) {
      log.showOnce("open:" + location, MessageType.Warning,
          "racetriage: cannot open the triage database " + location + ": " + e.getMessage()
              + ". Static candidates are still shown; verdicts appear once the database opens"
              + " (set racetriage.database to use another file).");
      return Optional.empty();
    }
  }

  public synchronized Optional<Path> location() {
    return Optional.ofNullable(location);
  }

  private void closeQuietly() {
    if (open != null) {
      try {
        open.close();
      } catch (RuntimeException e) {
        log.warn("racetriage: closing the triage database failed: " + e.getMessage());
      }
      open = null;
    }
  }

  /** Closes the database for good: a poll still in flight must not open it again. */
  @Override
  public synchronized void close() {
    closed = true;
    closeQuietly();
  }
}
