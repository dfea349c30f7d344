package dev.racetriage.store.runs;

import dev.racetriage.store.StoreException;
import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.sqlite.RowMapper;
import dev.racetriage.store.sqlite.Tx;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Records runs: started (RUNNING, owned by a process), kept alive by heartbeats, then finished with a status; or
 * marked ABANDONED by whoever opens the store next if the owner died first.
 */
public final class RunRepository {
  /** How often a long-running owner should call {@link #heartbeat}. */
  public static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(30);
  /**
   * How long a run on another host (or with no recorded owner) may go without a heartbeat before it is presumed
   * dead. Generous: twenty missed heartbeats, so a busy or briefly suspended machine is not declared dead.
   */
  public static final Duration HEARTBEAT_LIMIT = Duration.ofMinutes(10);

  private static final String COLUMNS =
      "id, kind, started_at, finished_at, commit_id, fingerprint, status, message, owner_pid, owner_host,"
          + " owner_started_at, heartbeat_at";
  private static final RowMapper<Run> RUN =
      row -> new Run(
          row.getLong("id"),
          row.getString("kind"),
          Tx.instant(row, "started_at"),
          Tx.instant(row, "finished_at"),
          row.getString("commit_id"),
          row.getString("fingerprint"),
          RunStatus.valueOf(row.getString("status")),
          row.getString("message"),
          owner(row.getObject("owner_pid"), row.getString("owner_host"), Tx.instant(row, "owner_started_at")),
          Tx.instant(row, "heartbeat_at"));

  private final Database db;

  public RunRepository(Database db) {
    this.db = db;
  }

  /** Starts a RUNNING run owned by this process, with a heartbeat of now. */
  public Run start(String kind, String commitId, String fingerprint) {
    return start(kind, commitId, fingerprint, RunOwner.current());
  }

  /**
   * Starts a RUNNING run owned by {@code owner}: for a process that records a run on behalf of another it started
   * (and for tests that need an owner that dies).
   */
  public Run start(String kind, String commitId, String fingerprint, RunOwner owner) {
    return db.write("start a run", tx -> {
      long id = tx.insert(
          "INSERT INTO run(kind, started_at, commit_id, fingerprint, status, owner_pid, owner_host, owner_started_at,"
              + " heartbeat_at) VALUES (?, ?, ?, ?, 'RUNNING', ?, ?, ?, ?)",
          kind, tx.now(), commitId, fingerprint, owner.pid(), owner.host(), owner.processStartedAt(), tx.now());
      return get(tx, id);
    });
  }

  /**
   * Says the run's owner is still working (call it every {@link #HEARTBEAT_INTERVAL}). A run that was marked
   * ABANDONED meanwhile (its host was suspended past {@link #HEARTBEAT_LIMIT}) is RUNNING again: its owner is
   * alive after all. A finished run is left as it is.
   */
  public Run heartbeat(long runId) {
    return db.write("record a heartbeat of run " + runId, tx -> {
      tx.update(
          "UPDATE run SET heartbeat_at = ?,"
              + " finished_at = CASE WHEN status = 'ABANDONED' THEN NULL ELSE finished_at END,"
              + " message = CASE WHEN status = 'ABANDONED' THEN NULL ELSE message END,"
              + " status = CASE WHEN status = 'ABANDONED' THEN 'RUNNING' ELSE status END"
              + " WHERE id = ?",
          tx.now(), runId);
      return tx.queryOne("SELECT " + COLUMNS + " FROM run WHERE id = ?", RUN, runId)
          .orElseThrow(() -> new StoreException("there is no run " + runId + " in " + db.location().display()));
    });
  }

  /**
   * Ends a run; {@code status} must not be RUNNING. The fingerprint may be set now if it was unknown at the start. A
   * run marked ABANDONED while its owner was in fact alive (see {@link #heartbeat}) takes the status given here.
   */
  public Run finish(long runId, RunStatus status, String message, String fingerprint) {
    if (status == RunStatus.RUNNING) {
      throw new IllegalArgumentException("a run cannot finish as RUNNING");
    }
    return db.write("finish run " + runId, tx -> {
      int changed = tx.update(
          "UPDATE run SET finished_at = ?, status = ?, message = ?, fingerprint = coalesce(?, fingerprint)"
              + " WHERE id = ?",
          tx.now(), status, message, fingerprint, runId);
      if (changed == 0) {
        throw new StoreException("there is no run " + runId + " in " + db.location().display());
      }
      return get(tx, runId);
    });
  }

  /**
   * Marks ABANDONED every RUNNING run whose owner is gone (see {@link OrphanCheck}), with a message saying why, and
   * returns them. {@code TriageStore.open} calls it, so no process is left listed as running after it died.
   */
  public List<Run> abandonOrphans() {
    OrphanCheck check = new OrphanCheck(RunOwner.localHost(), HEARTBEAT_LIMIT);
    List<Run> running = db.read("list running runs", tx ->
        tx.query("SELECT " + COLUMNS + " FROM run WHERE status = 'RUNNING' ORDER BY id", RUN));
    Instant now = db.clock().instant();
    List<Run> orphans = new ArrayList<>();
    List<String> reasons = new ArrayList<>();
    for (Run run : running) {
      check.whyAbandoned(run, now).ifPresent(why -> {
        orphans.add(run);
        reasons.add(why);
      });
    }
    if (orphans.isEmpty()) {
      return List.of(); // the common case stays read-only
    }
    return db.write("mark " + orphans.size() + " abandoned run(s)", tx -> {
      List<Run> abandoned = new ArrayList<>();
      for (int i = 0; i < orphans.size(); i++) {
        Run run = orphans.get(i);
        // Only if nothing changed since it was judged: a heartbeat or a finish in between means it is alive.
        int changed = tx.update(
            "UPDATE run SET status = 'ABANDONED', finished_at = ?, message = ?"
                + " WHERE id = ? AND status = 'RUNNING' AND heartbeat_at IS NOT DISTINCT FROM ?",
            tx.now(), "abandoned: " + reasons.get(i), run.id(), run.heartbeatAt());
        if (changed == 1) {
          abandoned.add(get(tx, run.id()));
        }
      }
      return abandoned;
    });
  }

  public Optional<Run> find(long runId) {
    return db.read("read run " + runId, tx -> tx.queryOne("SELECT " + COLUMNS + " FROM run WHERE id = ?", RUN, runId));
  }

  /**
   * The newest runs first. A RUNNING run whose owner is gone is shown ABANDONED even when this store is read-only and
   * cannot record it (the dashboard reads a read-only store): no reader lists a dead process's run as running.
   */
  public List<Run> recent(int limit) {
    List<Run> runs = db.read("list runs", tx ->
        tx.query("SELECT " + COLUMNS + " FROM run ORDER BY started_at DESC, id DESC LIMIT ?", RUN, limit));
    OrphanCheck check = new OrphanCheck(RunOwner.localHost(), HEARTBEAT_LIMIT);
    Instant now = db.clock().instant();
    List<Run> shown = new ArrayList<>(runs.size());
    for (Run run : runs) {
      shown.add(run.status() != RunStatus.RUNNING ? run : check.whyAbandoned(run, now)
          .map(why -> new Run(run.id(), run.kind(), run.startedAt(), null, run.commitId(), run.fingerprint(),
              RunStatus.ABANDONED, "abandoned: " + why, run.owner(), run.heartbeatAt()))
          .orElse(run));
    }
    return shown;
  }

  /** The newest run that finished with {@link RunStatus#SUCCEEDED}. */
  public Optional<Run> lastSucceeded() {
    return db.read("find the last successful run", tx ->
        tx.queryOne(
            "SELECT " + COLUMNS + " FROM run WHERE status = 'SUCCEEDED' ORDER BY finished_at DESC, id DESC LIMIT 1",
            RUN));
  }

  private static Run get(Tx tx, long id) throws SQLException {
    return tx.queryOne("SELECT " + COLUMNS + " FROM run WHERE id = ?", RUN, id).orElseThrow();
  }

  private static RunOwner owner(Object pid, String host, Instant processStartedAt) {
    return pid == null ? null : new RunOwner(((Number) pid).longValue(), host, processStartedAt);
  }
}
