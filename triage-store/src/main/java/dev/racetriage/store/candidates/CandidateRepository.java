package dev.racetriage.store.candidates;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.fields.FieldTable;
import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.sqlite.JsonColumns;
import dev.racetriage.store.sqlite.RowMapper;
import dev.racetriage.store.sqlite.Tx;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The static prefilter's latest opinion, replaced per file (on save) or for the whole project (on a full scan). */
public final class CandidateRepository {
  private static final String SELECT =
      "SELECT f.field_key, c.file, c.line, c.confidence, c.patterns, c.reasons"
          + " FROM candidate c JOIN field f ON f.id = c.field_id ";
  private static final RowMapper<StaticCandidate> CANDIDATE =
      row -> new StaticCandidate(
          FieldKey.parse(row.getString("field_key")),
          row.getString("file"),
          row.getInt("line"),
          row.getDouble("confidence"),
          JsonColumns.strings(row.getString("patterns")),
          JsonColumns.strings(row.getString("reasons")));

  private final Database db;

  public CandidateRepository(Database db) {
    this.db = db;
  }

  /**
   * Makes {@code candidates} the candidates of {@code file}: those of the file not in the list are dropped, the rest
   * inserted or updated (a field that moved here from another file moves with it).
   */
  public void replaceForFile(String file, Collection<StaticCandidate> candidates) {
    db.write("store the candidates of " + file, tx -> {
      Set<Long> kept = upsertAll(tx, candidates);
      for (long fieldId : tx.query("SELECT field_id FROM candidate WHERE file = ?", row -> row.getLong(1), file)) {
        if (!kept.contains(fieldId)) {
          tx.update("DELETE FROM candidate WHERE field_id = ?", fieldId);
        }
      }
      return null;
    });
  }

  /** Makes {@code candidates} the whole project's candidates (a full scan). */
  public void replaceAll(Collection<StaticCandidate> candidates) {
    db.write("store the project's candidates", tx -> {
      tx.update("DELETE FROM candidate");
      upsertAll(tx, candidates);
      return null;
    });
  }

  private static Set<Long> upsertAll(Tx tx, Collection<StaticCandidate> candidates) throws SQLException {
    Set<Long> ids = new HashSet<>();
    for (StaticCandidate candidate : candidates) {
      long fieldId = FieldTable.ensure(tx, candidate.field());
      tx.update(
          "INSERT INTO candidate(field_id, file, line, confidence, patterns, reasons, updated_at)"
              + " VALUES (?, ?, ?, ?, ?, ?, ?)"
              + " ON CONFLICT(field_id) DO UPDATE SET file = excluded.file, line = excluded.line,"
              + " confidence = excluded.confidence, patterns = excluded.patterns, reasons = excluded.reasons,"
              + " updated_at = excluded.updated_at",
          fieldId, candidate.file(), candidate.line(), candidate.confidence(),
          JsonColumns.write(candidate.patterns()), JsonColumns.write(candidate.reasons()), tx.now());
      ids.add(fieldId);
    }
    return ids;
  }

  public List<StaticCandidate> forFile(String file) {
    return db.read("read the candidates of " + file, tx ->
        tx.query(SELECT + "WHERE c.file = ? ORDER BY c.line, f.field_key", CANDIDATE, file));
  }

  public Optional<StaticCandidate> find(FieldKey field) {
    return db.read("read the candidate " + field, tx -> find(tx, field));
  }

  public static Optional<StaticCandidate> find(Tx tx, FieldKey field) throws SQLException {
    return tx.queryOne(SELECT + "WHERE f.field_key = ?", CANDIDATE, field.toString());
  }

  /** All candidates, highest confidence first. */
  public List<StaticCandidate> all() {
    return db.read("list candidates", tx ->
        tx.query(SELECT + "ORDER BY c.confidence DESC, f.field_key", CANDIDATE));
  }
}
