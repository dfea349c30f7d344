package dev.racetriage.store.queue;

import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.sqlite.RowMapper;
import dev.racetriage.store.sqlite.Tx;
import dev.racetriage.store.trials.Trial;
import dev.racetriage.store.trials.TrialRepository;
import dev.racetriage.store.workers.WorkerRepository;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The shared queue of planned trials. A distributing triage plans its units ({@link #plan}); workers on any machine
 * claim them with a lease ({@link #claim}), store each trial as it finishes under their claim ({@link #recordTrial}),
 * and finish the unit ({@link #complete}). Processes coordinate only through these rows.
 *
 * <p>Claims are optimistic and portable: a claimer reads a few claimable ids and takes one with an {@code UPDATE}
 * whose {@code WHERE} repeats the claimable condition, so of two claimers racing for an item exactly one updates it
 * (SQLite serialises writers; PostgreSQL re-checks the condition on the row the other committed) and the other
 * tries the next id. An expired lease makes the item claimable again, so a worker killed with {@code kill -9} loses
 * its item to the next claimer. A trial is stored only while its worker still holds the claim and only once per
 * inputs key within the run, so a worker whose lease was taken over stops at its next trial, and nothing is counted
 * twice; the next claimer finds the trials already stored under their inputs keys and reuses them.
 */
public final class TrialQueue {
  /** Attempts after which an item that keeps failing is given up on (FAILED) instead of re-queued. */
  public static final int MAX_ATTEMPTS = 3;

  private static final String COLUMNS = "q.id, q.run_id, q.fingerprint, q.field_key, q.test_name, q.spec, q.state,"
      + " q.decided, q.claimed_by, q.claimed_at, q.lease_until, q.attempts, q.enqueued_at, q.finished_at, q.outcomes,"
      + " q.error";
  private static final String SELECT = "SELECT " + COLUMNS + " FROM trial_item q ";
  private static final RowMapper<TrialItem> ITEM = row -> new TrialItem(
      row.getLong("id"), row.getLong("run_id"), row.getString("fingerprint"), row.getString("field_key"),
      row.getString("test_name"), row.getString("spec"), TrialItemState.valueOf(row.getString("state")),
      row.getInt("decided") != 0, row.getString("claimed_by"), Tx.instant(row, "claimed_at"),
      Tx.instant(row, "lease_until"), row.getInt("attempts"), Tx.instant(row, "enqueued_at"),
      Tx.instant(row, "finished_at"), row.getString("outcomes"), row.getString("error"));
  /** The claimable condition, on alias q, with the time bound as its one parameter. */
  private static final String CLAIMABLE = "(q.state = 'PENDING' OR (q.state = 'CLAIMED' AND q.lease_until <= ?))";

  private final Database db;

  public TrialQueue(Database db) {
    this.db = db;
  }

  /** Plans one unit of {@code runId}'s trials for the build {@code fingerprint}; returns its id. */
  public long plan(long runId, String fingerprint, String fieldKey, String testName, String spec) {
    return db.write("plan trials of " + fieldKey, tx -> tx.insert(
        "INSERT INTO trial_item(run_id, fingerprint, field_key, test_name, spec, state, enqueued_at)"
            + " VALUES (?, ?, ?, ?, ?, 'PENDING', ?)",
        runId, fingerprint, fieldKey, testName, spec, tx.now()));
  }

  /**
   * Takes the oldest claimable item planned for {@code fingerprint} by a run that is still running ({@code runId}:
   * only that run's items; null: any run's), leased to {@code worker} for {@code lease}. Empty when there is none.
   */
  public Optional<TrialItem> claim(String worker, String fingerprint, Long runId, Duration lease) {
    return db.write("claim planned trials", tx -> {
      List<Long> candidates = tx.query(
          "SELECT q.id FROM trial_item q JOIN run r ON r.id = q.run_id WHERE q.fingerprint = ? AND "
              + CLAIMABLE + " AND r.status = 'RUNNING'" + (runId == null ? "" : " AND q.run_id = " + runId)
              + " ORDER BY q.id LIMIT 8" + db.engine().skipLockedRows("q"),
          row -> row.getLong(1), fingerprint, tx.now());
      for (long id : candidates) {
        int taken = tx.update(
            "UPDATE trial_item SET state = 'CLAIMED', claimed_by = ?, claimed_at = ?, lease_until = ?,"
                + " attempts = attempts + 1 WHERE id = ? AND (state = 'PENDING' OR (state = 'CLAIMED'"
                + " AND lease_until <= ?))",
            worker, tx.now(), tx.now().plus(lease), id, tx.now());
        if (taken == 1) {
          return Optional.of(get(tx, id));
        }
      }
      return Optional.<TrialItem>empty();
    });
  }

  /** Extends the claim; false if {@code worker} no longer holds it (its lease ran out and another took it). */
  public boolean renew(long itemId, String worker, Duration lease) {
    return db.write("renew the lease of trial item " + itemId, tx -> holds(tx, itemId, worker)
        && tx.update("UPDATE trial_item SET lease_until = ? WHERE id = ?", tx.now().plus(lease), itemId) == 1);
  }

  /** What {@link #recordTrial} did. */
  public enum Recorded {
    /** Stored. */
    STORED,
    /** Not stored: a trial with the same inputs key is stored for the run already (counted once). */
    ALREADY_STORED,
    /** Not stored: the worker no longer holds the claim and must stop running the item. */
    CLAIM_LOST
  }

  /**
   * Stores one finished trial of the item's race under {@code worker}'s claim, renewing the lease; nothing when the
   * worker no longer holds the claim or a trial with the same inputs key is stored for the run already.
   */
  public Recorded recordTrial(long itemId, String worker, Duration lease, Trial trial, long runId, String inputsKey) {
    return db.write("record a trial of " + trial.field(), tx -> {
      if (!holds(tx, itemId, worker)) {
        return Recorded.CLAIM_LOST;
      }
      tx.update("UPDATE trial_item SET lease_until = ? WHERE id = ?", tx.now().plus(lease), itemId);
      if (inputsKey != null && tx.queryLong(
          "SELECT count(*) FROM trial WHERE run_id = ? AND inputs_key = ?", runId, inputsKey) > 0) {
        return Recorded.ALREADY_STORED;
      }
      TrialRepository.insert(tx, trial, runId, inputsKey, worker);
      WorkerRepository.countDone(tx, worker, 0, 1);
      return Recorded.STORED;
    });
  }

  /**
   * Marks the item's race decided: every pending unit of the same race in the same run is skipped, and units running
   * elsewhere see {@link #raceDecided} at their next run. False if {@code worker} no longer holds the claim.
   */
  public boolean decide(long itemId, String worker) {
    return db.write("mark trial item " + itemId + " decided", tx -> {
      if (!holds(tx, itemId, worker)) {
        return false;
      }
      TrialItem item = get(tx, itemId);
      tx.update("UPDATE trial_item SET decided = 1 WHERE id = ?", itemId);
      tx.update("UPDATE trial_item SET state = 'SKIPPED', finished_at = ?, error = ? WHERE run_id = ?"
              + " AND field_key = ? AND state = 'PENDING'",
          tx.now(), "the race was decided by trial item " + itemId, item.runId(), item.fieldKey());
      return true;
    });
  }

  /** Whether a unit of the race on {@code fieldKey} in {@code runId} has decided it. */
  public boolean raceDecided(long runId, String fieldKey) {
    return db.read("read whether " + fieldKey + " is decided", tx -> tx.queryLong(
        "SELECT count(*) FROM trial_item WHERE run_id = ? AND field_key = ? AND decided = 1", runId, fieldKey) > 0);
  }

  /** Finishes the item with the worker's report of its outcomes; false if {@code worker} no longer holds it. */
  public boolean complete(long itemId, String worker, String outcomes) {
    return db.write("finish trial item " + itemId, tx -> {
      if (!holds(tx, itemId, worker)) {
        return false;
      }
      tx.update("UPDATE trial_item SET state = 'DONE', finished_at = ?, lease_until = NULL, outcomes = ?, error = NULL"
          + " WHERE id = ?", tx.now(), outcomes, itemId);
      WorkerRepository.countDone(tx, worker, 1, 0);
      return true;
    });
  }

  /**
   * Gives the item back after a failure of {@code worker}'s (its checkout lacks the module, its JVM would not start):
   * pending again for another claimer, or FAILED with {@code error} after {@link #MAX_ATTEMPTS} attempts.
   */
  public boolean release(long itemId, String worker, String error) {
    return db.write("give back trial item " + itemId, tx -> {
      if (!holds(tx, itemId, worker)) {
        return false;
      }
      tx.update("UPDATE trial_item SET state = CASE WHEN attempts >= ? THEN 'FAILED' ELSE 'PENDING' END,"
              + " finished_at = CASE WHEN attempts >= ? THEN ? ELSE NULL END, claimed_by = NULL, lease_until = NULL,"
              + " error = ? WHERE id = ?",
          MAX_ATTEMPTS, MAX_ATTEMPTS, tx.now(), error, itemId);
      return true;
    });
  }

  /** Ends every unfinished item of {@code runId} (the run was cancelled or failed): workers stop taking them. */
  public int cancel(long runId, String why) {
    return db.write("cancel the planned trials of run " + runId, tx -> tx.update(
        "UPDATE trial_item SET state = 'SKIPPED', finished_at = ?, lease_until = NULL, error = ?"
            + " WHERE run_id = ? AND state IN ('PENDING', 'CLAIMED')", tx.now(), why, runId));
  }

  public Optional<TrialItem> find(long itemId) {
    return db.read("read trial item " + itemId, tx -> tx.queryOne(SELECT + "WHERE q.id = ?", ITEM, itemId));
  }

  /** The items of {@code runId} in plan order. */
  public List<TrialItem> forRun(long runId) {
    return db.read("read the planned trials of run " + runId, tx -> tx.query(
        SELECT + "WHERE q.run_id = ? ORDER BY q.id", ITEM, runId));
  }

  /** Items of {@code runId} (null: every run), claimed ones first, then pending, then the newest finished. */
  public List<TrialItem> list(Long runId, int limit) {
    return db.read("list planned trials", tx -> tx.query(
        SELECT + (runId == null ? "" : "WHERE q.run_id = " + runId + " ")
            + "ORDER BY CASE q.state WHEN 'CLAIMED' THEN 0 WHEN 'PENDING' THEN 1 ELSE 2 END,"
            + " CASE WHEN q.state IN ('CLAIMED', 'PENDING') THEN q.id ELSE -q.id END LIMIT ?",
        ITEM, limit));
  }

  /** How many items of {@code runId} (null: every run) are in each state. */
  public Map<TrialItemState, Long> counts(Long runId) {
    return db.read("count planned trials", tx -> {
      Map<TrialItemState, Long> counts = new EnumMap<>(TrialItemState.class);
      for (TrialItemState state : TrialItemState.values()) {
        counts.put(state, 0L);
      }
      for (Map.Entry<TrialItemState, Long> e : tx.query(
          "SELECT state, count(*) FROM trial_item" + (runId == null ? "" : " WHERE run_id = " + runId)
              + " GROUP BY state",
          row -> Map.entry(TrialItemState.valueOf(row.getString(1)), row.getLong(2)))) {
        counts.put(e.getKey(), e.getValue());
      }
      return counts;
    });
  }

  /** Trials stored for {@code runId} per worker (null: stored outside a worker), most first. */
  public Map<String, Long> trialsByWorker(long runId) {
    return db.read("count trials per worker", tx -> {
      Map<String, Long> counts = new LinkedHashMap<>();
      for (Map.Entry<String, Long> e : tx.query(
          "SELECT worker, count(*) AS n FROM trial WHERE run_id = ? GROUP BY worker ORDER BY n DESC, worker",
          row -> Map.entry(String.valueOf(row.getString(1)), row.getLong(2)), runId)) {
        counts.put(e.getKey(), e.getValue());
      }
      return counts;
    });
  }

  private static boolean holds(Tx tx, long itemId, String worker) throws SQLException {
    return tx.queryLong("SELECT count(*) FROM trial_item WHERE id = ? AND state = 'CLAIMED' AND claimed_by = ?",
        itemId, worker) > 0;
  }

  private static TrialItem get(Tx tx, long id) throws SQLException {
    return tx.queryOne(SELECT + "WHERE q.id = ?", ITEM, id).orElseThrow();
  }
}
