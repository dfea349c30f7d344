package dev.racetriage.store.verdicts;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.races.RaceRepository;
import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.sqlite.JsonColumns;
import dev.racetriage.store.sqlite.RowMapper;
import dev.racetriage.store.sqlite.Tx;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Verdicts and their history. Setting a verdict appends a history row (with time and run) when the verdict or its
 * evidence differs from the current one, and updates the race's current verdict in the same transaction.
 */
public final class VerdictRepository {
  private static final String SELECT =
      "SELECT v.id, f.field_key, v.verdict, v.evidence, v.decided_at, v.run_id"
          + " FROM verdict v JOIN race r ON r.id = v.race_id JOIN field f ON f.id = r.field_id ";
  private static final RowMapper<VerdictRecord> VERDICT =
      row -> new VerdictRecord(
          row.getLong("id"),
          FieldKey.parse(row.getString("field_key")),
          Verdict.valueOf(row.getString("verdict")),
          JsonColumns.read(row.getString("evidence"), Evidence.class),
          Tx.instant(row, "decided_at"),
          Tx.nullableLong(row, "run_id"));

  private final Database db;

  public VerdictRepository(Database db) {
    this.db = db;
  }

  /** Sets the race's verdict; returns the current record (the new one, or the unchanged one if nothing differs). */
  public VerdictRecord set(FieldKey field, Verdict verdict, Evidence evidence, Long runId) {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(evidence, "evidence");
    return db.write("set the verdict of " + field, tx -> {
      long raceId = RaceRepository.requireId(tx, field);
      Optional<VerdictRecord> current = current(tx, field);
      if (current.isPresent() && current.get().verdict() == verdict && current.get().evidence().equals(evidence)) {
        return current.get();
      }
      long id = tx.insert(
          "INSERT INTO verdict(race_id, run_id, verdict, evidence, decided_at) VALUES (?, ?, ?, ?, ?)",
          raceId, runId, verdict, JsonColumns.write(evidence), tx.now());
      tx.update("UPDATE race SET verdict = ?, verdict_at = ? WHERE id = ?", verdict, tx.now(), raceId);
      return tx.queryOne(SELECT + "WHERE v.id = ?", VERDICT, id).orElseThrow();
    });
  }

  /** The newest verdict record of the race on {@code field}; empty while it has none (it is PENDING). */
  public Optional<VerdictRecord> current(FieldKey field) {
    return db.read("read the verdict of " + field, tx -> current(tx, field));
  }

  public static Optional<VerdictRecord> current(Tx tx, FieldKey field) throws SQLException {
    return tx.queryOne(SELECT + "WHERE f.field_key = ? ORDER BY v.id DESC LIMIT 1", VERDICT, field.toString());
  }

  /** Every verdict the race has had, oldest first. */
  public List<VerdictRecord> history(FieldKey field) {
    return db.read("read the verdict history of " + field, tx -> history(tx, field));
  }

  public static List<VerdictRecord> history(Tx tx, FieldKey field) throws SQLException {
    return tx.query(SELECT + "WHERE f.field_key = ? ORDER BY v.id", VERDICT, field.toString());
  }

  /** The current verdict of every race, by field key (PENDING for races not classified yet). */
  public Map<FieldKey, Verdict> currentByField() {
    return db.read("read all current verdicts", tx -> {
      Map<FieldKey, Verdict> verdicts = new LinkedHashMap<>();
      for (Map.Entry<FieldKey, Verdict> entry : tx.query(
          "SELECT f.field_key, r.verdict FROM race r JOIN field f ON f.id = r.field_id ORDER BY f.field_key",
          row -> Map.entry(FieldKey.parse(row.getString(1)), Verdict.valueOf(row.getString(2))))) {
        verdicts.put(entry.getKey(), entry.getValue());
      }
      return verdicts;
    });
  }
}
