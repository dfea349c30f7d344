package dev.racetriage.store.queue;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.fields.FieldTable;
import dev.racetriage.store.races.RaceRepository;
import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.sqlite.RowMapper;
import dev.racetriage.store.sqlite.Tx;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The daemon's persistent work queue. Claims are leases: a claimer that dies leaves its item CLAIMED, and once the
 * lease has run out any claimer may take it again, so a killed daemon resumes where it stopped. Claiming runs in a
 * write transaction ({@code BEGIN IMMEDIATE}), so two processes never claim the same item. Only the current holder
 * of a claim may complete, fail or renew it.
 */
public final class WorkQueue {
  private static final String SELECT =
      "SELECT w.id, f.field_key, w.reason, w.priority, w.state, w.enqueued_at, w.claimed_by, w.lease_until,"
          + " w.attempts, w.finished_at, w.error FROM work_item w JOIN field f ON f.id = w.field_id ";
  private static final RowMapper<WorkItem> ITEM =
      row -> new WorkItem(
          row.getLong("id"),
          FieldKey.parse(row.getString("field_key")),
          row.getString("reason"),
          row.getInt("priority"),
          WorkState.valueOf(row.getString("state")),
          Tx.instant(row, "enqueued_at"),
          row.getString("claimed_by"),
          Tx.instant(row, "lease_until"),
          row.getInt("attempts"),
          Tx.instant(row, "finished_at"),
          row.getString("error"));

  private final Database db;

  public WorkQueue(Database db) {
    this.db = db;
  }

  /**
   * Queues the field for triage. If it is already pending, no second item is made: the pending one keeps its place,
   * takes the higher priority, and its reason is updated. Returns the pending item.
   */
  public WorkItem enqueue(FieldKey field, String reason, int priority) {
    return db.write("queue " + field, tx -> {
      long fieldId = FieldTable.ensure(tx, field);
      tx.update(
          "INSERT INTO work_item(field_id, reason, priority, state, enqueued_at) VALUES (?, ?, ?, 'PENDING', ?)"
              + " ON CONFLICT(field_id) WHERE state = 'PENDING'"
              + " DO UPDATE SET priority = " + RaceRepository.larger("work_item.priority", "excluded.priority")
              + ", reason = excluded.reason",
          fieldId, reason, priority, tx.now());
      return tx.queryOne(SELECT + "WHERE w.field_id = ? AND w.state = 'PENDING'", ITEM, fieldId).orElseThrow();
    });
  }

  /**
   * Atomically takes the next item: the highest priority, oldest first, among pending items and claimed items whose
   * lease has run out. The claim lasts {@code lease}; renew it for longer work.
   */
  public Optional<WorkItem> claimNext(String claimer, Duration lease) {
    return db.write("claim work", tx -> {
      Optional<Long> next = tx.queryOne(
          "SELECT id FROM work_item WHERE state = 'PENDING' OR (state = 'CLAIMED' AND lease_until <= ?)"
              + " ORDER BY priority DESC, id LIMIT 1",
          row -> row.getLong(1), tx.now());
      if (next.isEmpty()) {
        return Optional.empty();
      }
      tx.update(
          "UPDATE work_item SET state = 'CLAIMED', claimed_by = ?, claimed_at = ?, lease_until = ?,"
              + " attempts = attempts + 1 WHERE id = ?",
          claimer, tx.now(), tx.now().plus(lease), next.get());
      return Optional.of(get(tx, next.get()));
    });
  }

  /** Extends the claim; false if {@code claimer} no longer holds it (its lease ran out and another took it). */
  public boolean renew(long itemId, String claimer, Duration lease) {
    return db.write("renew work item " + itemId, tx ->
        tx.update(
            "UPDATE work_item SET lease_until = ? WHERE id = ? AND state = 'CLAIMED' AND claimed_by = ?",
            tx.now().plus(lease), itemId, claimer) > 0);
  }

  /** Marks the item done; false if {@code claimer} no longer holds it. */
  public boolean complete(long itemId, String claimer) {
    return finish(itemId, claimer, WorkState.DONE, null);
  }

  /** Marks the item failed with the reason; false if {@code claimer} no longer holds it. */
  public boolean fail(long itemId, String claimer, String error) {
    return finish(itemId, claimer, WorkState.FAILED, error);
  }

  private boolean finish(long itemId, String claimer, WorkState state, String error) {
    return db.write("finish work item " + itemId, tx ->
        tx.update(
            "UPDATE work_item SET state = ?, finished_at = ?, error = ?, lease_until = NULL"
                + " WHERE id = ? AND state = 'CLAIMED' AND claimed_by = ?",
            state, tx.now(), error, itemId, claimer) > 0);
  }

  public Optional<WorkItem> find(long itemId) {
    return db.read("read work item " + itemId, tx -> tx.queryOne(SELECT + "WHERE w.id = ?", ITEM, itemId));
  }

  /** Items in {@code state}, in claim order. */
  public List<WorkItem> list(WorkState state, int limit) {
    return db.read("list work items", tx -> tx.query(
        SELECT + "WHERE w.state = ? ORDER BY w.priority DESC, w.id LIMIT ?", ITEM, state, limit));
  }

  /** How many items are in each state (for progress display). */
  public Map<WorkState, Long> counts() {
    return db.read("count work items", tx -> {
      Map<WorkState, Long> counts = new EnumMap<>(WorkState.class);
      for (WorkState state : WorkState.values()) {
        counts.put(state, 0L);
      }
      for (Map.Entry<WorkState, Long> entry : tx.query(
          "SELECT state, count(*) FROM work_item GROUP BY state",
          row -> Map.entry(WorkState.valueOf(row.getString(1)), row.getLong(2)))) {
        counts.put(entry.getKey(), entry.getValue());
      }
      return counts;
    });
  }

  private static WorkItem get(Tx tx, long id) throws SQLException {
    return tx.queryOne(SELECT + "WHERE w.id = ?", ITEM, id).orElseThrow();
  }
}
