package dev.racetriage.store.trials;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.races.RaceRepository;
import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.sqlite.RowMapper;
import dev.racetriage.store.sqlite.Tx;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Trials of races: added by the runner, read back per race for verdict evidence and display, and looked up by the
 * key of their inputs so an interrupted triage can reuse what it finished.
 *
 * <p>The reads for verdicts and display ({@link #forRace}, {@link #byHeuristic}, {@link #summaries}) return every
 * trial of the race from all runs (finished, failed or abandoned): trials accumulate across runs, as before. So a
 * resumed triage must not add a trial again for a key it reused (it would count twice), and needs no copy of it:
 * the stored one already counts.
 */
public final class TrialRepository {
  private static final String SELECT =
      "SELECT t.id, t.run_id, t.recorded_at, f.field_key, t.test, t.heuristic, t.seed, t.outcome, t.duration_ms,"
          + " t.reads, t.stale_reads, t.failure, t.inputs_key, t.same_choices"
          + " FROM trial t JOIN race r ON r.id = t.race_id JOIN field f ON f.id = r.field_id ";
  private static final RowMapper<TrialRecord> TRIAL =
      row -> new TrialRecord(
          row.getLong("id"),
          Tx.nullableLong(row, "run_id"),
          Tx.instant(row, "recorded_at"),
          new Trial(
              FieldKey.parse(row.getString("field_key")),
              row.getString("test"),
              row.getString("heuristic"),
              row.getLong("seed"),
              TrialOutcome.valueOf(row.getString("outcome")),
              Duration.ofMillis(row.getLong("duration_ms")),
              row.getLong("reads"),
              row.getLong("stale_reads"),
              row.getString("failure"),
              heuristics(row.getString("same_choices"))),
          row.getString("inputs_key"));
  /** The stored {@code same_choices} column as a set: null stays null (not known), "" is none. */
  private static java.util.Set<String> heuristics(String column) {
    if (column == null) return null;
    return column.isEmpty() ? java.util.Set.of() : java.util.Set.of(column.split(","));
  }

  private final Database db;

  public TrialRepository(Database db) {
    this.db = db;
  }

  /** Adds trials (of one or several races, which must be recorded already) in one transaction, without inputs keys. */
  public List<TrialRecord> addAll(Collection<Trial> trials, Long runId) {
    return db.write("record " + trials.size() + " trials", tx -> {
      List<TrialRecord> added = new ArrayList<>();
      for (Trial trial : trials) {
        added.add(insert(tx, trial, runId, null));
      }
      return added;
    });
  }

  public TrialRecord add(Trial trial, Long runId) {
    return add(trial, runId, null);
  }

  /**
   * Persists one finished trial at once, in its own transaction, with the key of the inputs it was run from (see
   * {@link InputsKey}; null: never reused). The race must be recorded already ({@code races().upsert}). Call it as
   * each trial completes: whatever was added survives a kill and is found by {@link #reusable} on the re-run.
   */
  public TrialRecord add(Trial trial, Long runId, String inputsKey) {
    return db.write("record a trial of " + trial.field(), tx -> insert(tx, trial, runId, inputsKey));
  }

  private static TrialRecord insert(Tx tx, Trial trial, Long runId, String inputsKey) throws SQLException {
    return insert(tx, trial, runId, inputsKey, null);
  }

  /** Inserts one trial inside {@code tx}, run by {@code worker} (null: by the triage itself, not a worker). */
  public static TrialRecord insert(Tx tx, Trial trial, Long runId, String inputsKey, String worker)
      throws SQLException {
    long raceId = RaceRepository.requireId(tx, trial.field());
    long id = tx.insert(
        "INSERT INTO trial(race_id, run_id, test, heuristic, seed, outcome, duration_ms, reads, stale_reads,"
            + " failure, recorded_at, inputs_key, worker, same_choices) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        raceId, runId, trial.test(), trial.heuristic(), trial.seed(), trial.outcome(),
        trial.duration().toMillis(), trial.reads(), trial.staleReads(), trial.failure(), tx.now(), inputsKey, worker,
        trial.sameChoices() == null ? null : String.join(",", new java.util.TreeSet<>(trial.sameChoices())));
    return new TrialRecord(id, runId, tx.now(), trial, inputsKey);
  }

  /**
   * The trial stored under {@code inputsKey} by a run that did not finish (killed, abandoned, failed or cancelled):
   * what a re-run of an interrupted triage may take instead of running it again. Trials of a run that succeeded are
   * not offered: a triage run again after a complete one makes new trials (the schedule differs from run to run).
   */
  public java.util.Optional<TrialRecord> resumable(String inputsKey) {
    return db.read("find a finished trial to resume", tx -> tx.queryOne(
        SELECT + "JOIN run ON run.id = t.run_id WHERE t.inputs_key = ? AND run.status <> 'SUCCEEDED'"
            + " ORDER BY t.id DESC LIMIT 1", TRIAL, inputsKey));
  }

  /**
   * Moves the resumable trial stored under {@code inputsKey} into {@code runId}, the run that reuses it: it is then
   * counted once (every reader counts a race's trials across runs) and no later run resumes it again.
   */
  public void adopt(String inputsKey, long runId) {
    db.write("reuse a finished trial", tx -> tx.update(
        "UPDATE trial SET run_id = ? WHERE id = (SELECT t.id FROM trial t JOIN run ON run.id = t.run_id"
            + " WHERE t.inputs_key = ? AND run.status <> 'SUCCEEDED' AND t.run_id <> ? ORDER BY t.id DESC LIMIT 1)",
        runId, inputsKey, runId));
  }

  /** The trials of the race on {@code field}, oldest first. */
  public List<TrialRecord> forRace(FieldKey field) {
    return db.read("read the trials of " + field, tx -> forRace(tx, field));
  }

  public static List<TrialRecord> forRace(Tx tx, FieldKey field) throws SQLException {
    return tx.query(SELECT + "WHERE f.field_key = ? ORDER BY t.id", TRIAL, field.toString());
  }

  /** The trials of the race grouped by heuristic, {@code sc} (the control) first, then by name. */
  public static Map<String, List<TrialRecord>> byHeuristic(Tx tx, FieldKey field) throws SQLException {
    Map<String, List<TrialRecord>> groups = new LinkedHashMap<>();
    for (TrialRecord record : tx.query(
        SELECT + "WHERE f.field_key = ? ORDER BY t.heuristic <> 'sc', t.heuristic, t.id", TRIAL, field.toString())) {
      groups.computeIfAbsent(record.trial().heuristic(), h -> new ArrayList<>()).add(record);
    }
    return groups;
  }

  public Map<String, List<TrialRecord>> byHeuristic(FieldKey field) {
    return db.read("read the trials of " + field, tx -> byHeuristic(tx, field));
  }

  /** Per-heuristic aggregates of the race's trials, {@code sc} first. */
  public List<HeuristicSummary> summaries(FieldKey field) {
    return db.read("summarise the trials of " + field, tx -> tx.query(
        "SELECT t.heuristic, count(*) AS runs,"
            + " sum(CASE WHEN t.outcome = 'FAIL' THEN 1 ELSE 0 END) AS failures,"
            + " sum(CASE WHEN t.outcome = 'TIMEOUT' THEN 1 ELSE 0 END) AS timeouts,"
            + " sum(t.reads) AS reads, sum(t.stale_reads) AS stale, avg(t.duration_ms) AS mean_ms,"
            + " max(t.duration_ms) AS max_ms"
            + " FROM trial t JOIN race r ON r.id = t.race_id JOIN field f ON f.id = r.field_id"
            + " WHERE f.field_key = ? GROUP BY t.heuristic ORDER BY t.heuristic <> 'sc', t.heuristic",
        row -> new HeuristicSummary(
            row.getString("heuristic"),
            row.getInt("runs"),
            row.getInt("failures"),
            row.getInt("timeouts"),
            row.getLong("reads"),
            row.getLong("stale"),
            Duration.ofMillis(Math.round(row.getDouble("mean_ms"))),
            Duration.ofMillis(row.getLong("max_ms"))),
        field.toString()));
  }
}
