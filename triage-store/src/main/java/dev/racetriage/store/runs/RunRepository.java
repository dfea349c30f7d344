package dev.racetriage.store.runs;

import dev.racetriage.store.StoreException;
import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.sqlite.RowMapper;
import dev.racetriage.store.sqlite.Tx;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** Records runs: started, then finished with a status. */
public final class RunRepository {
  private static final String COLUMNS =
      "id, kind, started_at, finished_at, commit_id, fingerprint, status, message";
  private static final RowMapper<Run> RUN =
      row -> new Run(
          row.getLong("id"),
          row.getString("kind"),
          Tx.instant(row, "started_at"),
          Tx.instant(row, "finished_at"),
          row.getString("commit_id"),
          row.getString("fingerprint"),
          RunStatus.valueOf(row.getString("status")),
          row.getString("message"));

  private final Database db;

  public RunRepository(Database db) {
    this.db = db;
  }

  public Run start(String kind, String commitId, String fingerprint) {
    return db.write("start a run", tx -> {
      long id = tx.insert(
          "INSERT INTO run(kind, started_at, commit_id, fingerprint, status) VALUES (?, ?, ?, ?, 'RUNNING')",
          kind, tx.now(), commitId, fingerprint);
      return get(tx, id);
    });
  }

  /** Ends a run; {@code status} must not be RUNNING. The fingerprint may be set now if it was unknown at the start. */
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
        throw new StoreException("there is no run " + runId + " in " + db.file());
      }
      return get(tx, runId);
    });
  }

  public Optional<Run> find(long runId) {
    return db.read("read run " + runId, tx -> tx.queryOne("SELECT " + COLUMNS + " FROM run WHERE id = ?", RUN, runId));
  }

  /** The newest runs first. */
  public List<Run> recent(int limit) {
    return db.read("list runs", tx ->
        tx.query("SELECT " + COLUMNS + " FROM run ORDER BY started_at DESC, id DESC LIMIT ?", RUN, limit));
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
}
