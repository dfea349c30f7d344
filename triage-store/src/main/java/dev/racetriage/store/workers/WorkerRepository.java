package dev.racetriage.store.workers;

import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.sqlite.RowMapper;
import dev.racetriage.store.sqlite.Tx;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The worker processes that run planned trials (`racetriage worker`, and a `triage --distribute` itself): each
 * registers with its host, PID and checkout, reports a heartbeat with what it is doing, and counts what it finished.
 * Only the dashboard and the distributing triage read this table; claims are guarded by the queue's leases, not by
 * it.
 */
public final class WorkerRepository {
  /** How often a worker reports; a worker silent for {@link #PRESUMED_DEAD} is shown as gone. */
  public static final Duration HEARTBEAT = Duration.ofSeconds(5);
  public static final Duration PRESUMED_DEAD = Duration.ofSeconds(60);

  private static final String SELECT = "SELECT id, host, pid, project, commit_id, fingerprint, state, started_at,"
      + " heartbeat_at, items_done, trials_done, message FROM worker ";
  private static final RowMapper<WorkerRecord> WORKER = row -> new WorkerRecord(
      row.getString("id"), row.getString("host"), row.getLong("pid"), row.getString("project"),
      row.getString("commit_id"), row.getString("fingerprint"), row.getString("state"),
      Tx.instant(row, "started_at"), Tx.instant(row, "heartbeat_at"), row.getInt("items_done"),
      row.getInt("trials_done"), row.getString("message"));

  private final Database db;

  public WorkerRepository(Database db) {
    this.db = db;
  }

  /** Records a new worker and returns its id ({@code host:pid:random}, unique even if a PID is reused). */
  public String register(String host, long pid, String project, String commit) {
    String id = host + ":" + pid + ":" + HexFormat.of().toHexDigits((short) ThreadLocalRandom.current().nextInt());
    db.write("register worker " + id, tx -> tx.update(
        "INSERT INTO worker(id, host, pid, project, commit_id, state, started_at, heartbeat_at)"
            + " VALUES (?, ?, ?, ?, ?, 'BUILDING', ?, ?)",
        id, host, pid, project, commit, tx.now(), tx.now()));
    return id;
  }

  /** Reports the worker alive, doing {@code state} on the build {@code fingerprint} (null: not built yet). */
  public void heartbeat(String id, String state, String fingerprint, String message) {
    db.write("worker heartbeat", tx -> tx.update(
        "UPDATE worker SET state = ?, fingerprint = coalesce(?, fingerprint), message = ?, heartbeat_at = ?"
            + " WHERE id = ?",
        state, fingerprint, message, tx.now(), id));
  }

  /** Adds to the worker's counts, inside the unit of work that stored what it counts (the queue's). */
  public static void countDone(Tx tx, String worker, int items, int trials) throws java.sql.SQLException {
    tx.update("UPDATE worker SET items_done = items_done + ?, trials_done = trials_done + ?, heartbeat_at = ?"
        + " WHERE id = ?", items, trials, tx.now(), worker);
  }

  public Optional<WorkerRecord> find(String id) {
    return db.read("read worker " + id, tx -> tx.queryOne(SELECT + "WHERE id = ?", WORKER, id));
  }

  /** Every worker, the most recently heard from first. */
  public List<WorkerRecord> list() {
    return db.read("list workers", tx -> tx.query(SELECT + "ORDER BY heartbeat_at DESC, id", WORKER));
  }
}
