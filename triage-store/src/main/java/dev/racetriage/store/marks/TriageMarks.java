package dev.racetriage.store.marks;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.fields.FieldTable;
import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.sqlite.RowMapper;
import dev.racetriage.store.sqlite.Tx;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Team triage actions: mark trusted-benign, reopen, comment. Each writes the audit log in the same transaction; marks
 * and reopens also rewrite the mirror file while the write lock is held, so concurrent processes cannot interleave
 * their file writes and the file always matches a committed database state.
 */
public final class TriageMarks {
  private static final RowMapper<TrustedBenignMark> MARK =
      row -> new TrustedBenignMark(
          FieldKey.parse(row.getString("field_key")),
          row.getString("author"),
          row.getString("note"),
          Tx.instant(row, "marked_at"));
  private static final RowMapper<AuditEntry> AUDIT =
      row -> new AuditEntry(
          row.getLong("id"),
          FieldKey.parse(row.getString("field_key")),
          AuditAction.valueOf(row.getString("action")),
          row.getString("author"),
          row.getString("note"),
          Tx.instant(row, "at"));
  private static final String SELECT_MARK =
      "SELECT f.field_key, m.author, m.note, m.marked_at FROM trusted_benign_mark m JOIN field f ON f.id = m.field_id ";
  private static final String SELECT_AUDIT =
      "SELECT a.id, f.field_key, a.action, a.author, a.note, a.at FROM audit_log a JOIN field f ON f.id = a.field_id ";

  private final Database db;
  private final MarkMirrorFile mirror;

  public TriageMarks(Database db, MarkMirrorFile mirror) {
    this.db = db;
    this.mirror = mirror;
  }

  public MarkMirrorFile mirror() {
    return mirror;
  }

  /** Marks {@code field} trusted-benign (replacing an earlier mark's author and note). No race need exist yet. */
  public TrustedBenignMark markTrustedBenign(FieldKey field, String author, String note) {
    requireText(author, "author");
    requireText(note, "note (why the race is harmless)");
    return db.write("mark " + field + " trusted-benign", tx -> {
      TrustedBenignMark mark = new TrustedBenignMark(field, author, note, tx.now());
      long fieldId = FieldTable.ensure(tx, field);
      tx.update(
          "INSERT INTO trusted_benign_mark(field_id, author, note, marked_at) VALUES (?, ?, ?, ?)"
              + " ON CONFLICT(field_id) DO UPDATE SET author = excluded.author, note = excluded.note,"
              + " marked_at = excluded.marked_at",
          fieldId, author, note, mark.markedAt());
      audit(tx, fieldId, AuditAction.MARK_TRUSTED_BENIGN, author, note);
      mirror.write(all(tx));
      return mark;
    });
  }

  /** Removes the mark of {@code field}; false (and nothing logged) if it had none. */
  public boolean reopen(FieldKey field, String author, String note) {
    requireText(author, "author");
    return db.write("reopen " + field, tx -> {
      Optional<Long> fieldId = FieldTable.find(tx, field);
      if (fieldId.isEmpty() || tx.update("DELETE FROM trusted_benign_mark WHERE field_id = ?", fieldId.get()) == 0) {
        return false;
      }
      audit(tx, fieldId.get(), AuditAction.REOPEN, author, note);
      mirror.write(all(tx));
      return true;
    });
  }

  /** Adds a comment to the field's audit log. */
  public AuditEntry comment(FieldKey field, String author, String text) {
    requireText(author, "author");
    requireText(text, "comment");
    return db.write("comment on " + field, tx -> {
      long fieldId = FieldTable.ensure(tx, field);
      long id = audit(tx, fieldId, AuditAction.COMMENT, author, text);
      return tx.queryOne(SELECT_AUDIT + "WHERE a.id = ?", AUDIT, id).orElseThrow();
    });
  }

  public Optional<TrustedBenignMark> find(FieldKey field) {
    return db.read("read the mark of " + field, tx -> find(tx, field));
  }

  public static Optional<TrustedBenignMark> find(Tx tx, FieldKey field) throws SQLException {
    return tx.queryOne(SELECT_MARK + "WHERE f.field_key = ?", MARK, field.toString());
  }

  /** All marks, by field key. */
  public List<TrustedBenignMark> all() {
    return db.read("list trusted-benign marks", TriageMarks::all);
  }

  private static List<TrustedBenignMark> all(Tx tx) throws SQLException {
    return tx.query(SELECT_MARK + "ORDER BY f.field_key", MARK);
  }

  /** The audit log of one field, oldest first. */
  public List<AuditEntry> auditLog(FieldKey field) {
    return db.read("read the audit log of " + field, tx -> auditLog(tx, field));
  }

  public static List<AuditEntry> auditLog(Tx tx, FieldKey field) throws SQLException {
    return tx.query(SELECT_AUDIT + "WHERE f.field_key = ? ORDER BY a.id", AUDIT, field.toString());
  }

  /** The latest triage actions across the project, newest first. */
  public List<AuditEntry> recentActivity(int limit) {
    return db.read("read the audit log", tx -> tx.query(SELECT_AUDIT + "ORDER BY a.id DESC LIMIT ?", AUDIT, limit));
  }

  /**
   * Copies into the database the marks of the mirror file that it lacks (a teammate's committed marks, or a new
   * database next to an old file); each import is audited with the mark's author. Marks the database already has are
   * left alone, and marks the file lacks are not removed. Returns the imported marks.
   */
  public List<TrustedBenignMark> importFromMirror() {
    List<TrustedBenignMark> inFile = mirror.read();
    if (inFile.isEmpty()) {
      return List.of();
    }
    return db.write("import the marks of " + mirror.file(), tx -> {
      List<TrustedBenignMark> imported = new ArrayList<>();
      for (TrustedBenignMark mark : inFile) {
        long fieldId = FieldTable.ensure(tx, mark.field());
        int inserted = tx.update(
            "INSERT INTO trusted_benign_mark(field_id, author, note, marked_at) VALUES (?, ?, ?, ?)"
                + " ON CONFLICT(field_id) DO NOTHING",
            fieldId, mark.author(), mark.note(), mark.markedAt());
        if (inserted > 0) {
          audit(tx, fieldId, AuditAction.IMPORT_MARK, mark.author(), "imported from " + mirror.file());
          imported.add(mark);
        }
      }
      return imported;
    });
  }

  private static long audit(Tx tx, long fieldId, AuditAction action, String author, String note)
      throws SQLException {
    return tx.insert(
        "INSERT INTO audit_log(field_id, action, author, note, at) VALUES (?, ?, ?, ?, ?)",
        fieldId, action, author, note, tx.now());
  }

  private static void requireText(String value, String what) {
    if (Objects.requireNonNull(value, what).isBlank()) {
      throw new IllegalArgumentException("the " + what + " must not be empty");
    }
  }
}
