package dev.racetriage.store.marks;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.fields.FieldTable;
import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.sqlite.RowMapper;
import dev.racetriage.store.sqlite.Tx;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Team triage actions: mark trusted-benign, reopen, comment. Each writes the audit log in the same transaction; marks
 * and reopens also rewrite the mirror file while the write lock is held, so concurrent processes cannot interleave
 * their file writes and the file always matches a committed database state.
 */
public final class TriageMarks {
  /** The author recorded for a reopen that came from the mirror file, whose committer the store cannot know. */
  public static final String MIRROR_AUTHOR = "trusted-benign.json";
  /** How many marks a sync removes without a person's confirmation: one is a teammate's reopen (see RemovalPolicy). */
  public static final int MAX_UNCONFIRMED_REMOVALS = 1;

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
  private final MirrorBase base;

  public TriageMarks(Database db, MarkMirrorFile mirror) {
    this(db, mirror, MirrorBase.whole());
  }

  /** {@code base}: where this checkout's merge base lives ({@link MirrorBase#ofCheckout} in a shared store). */
  public TriageMarks(Database db, MarkMirrorFile mirror, MirrorBase base) {
    this.db = db;
    this.mirror = mirror;
    this.base = base;
  }

  public MarkMirrorFile mirror() {
    return mirror;
  }

  /** Marks {@code field} trusted-benign (replacing an earlier mark's author and note). No race need exist yet. */
  public TrustedBenignMark markTrustedBenign(FieldKey field, String author, String note) {
    return markTrustedBenign(field, author, note, false);
  }

  /**
   * As {@link #markTrustedBenign(FieldKey, String, String)}; {@code overridesDestructive} records in the audit log
   * that the mark was made knowingly against a destructive verdict ({@link AuditAction#MARK_OVERRIDING_DESTRUCTIVE}).
   * The callers ask for that confirmation; the store only records it.
   */
  public TrustedBenignMark markTrustedBenign(FieldKey field, String author, String note, boolean overridesDestructive) {
    requireText(author, "author");
    requireText(note, "note (why the race is harmless)");
    requireShort(note, "note");
    return db.writeExclusive("mark " + field + " trusted-benign", tx -> {
      syncBeforeWriting(tx);
      TrustedBenignMark mark = new TrustedBenignMark(field, author, note, tx.now());
      long fieldId = FieldTable.ensure(tx, field);
      tx.update(
          "INSERT INTO trusted_benign_mark(field_id, author, note, marked_at) VALUES (?, ?, ?, ?)"
              + " ON CONFLICT(field_id) DO UPDATE SET author = excluded.author, note = excluded.note,"
              + " marked_at = excluded.marked_at",
          fieldId, author, note, mark.markedAt());
      audit(tx, fieldId, overridesDestructive ? AuditAction.MARK_OVERRIDING_DESTRUCTIVE : AuditAction.MARK_TRUSTED_BENIGN,
          author, note);
      writeMirror(tx);
      return mark;
    });
  }

  /** Removes the mark of {@code field}; false (and nothing logged) if it had none. */
  public boolean reopen(FieldKey field, String author, String note) {
    requireText(author, "author");
    requireShort(note, "note");
    return db.writeExclusive("reopen " + field, tx -> {
      syncBeforeWriting(tx);
      Optional<Long> fieldId = FieldTable.find(tx, field);
      if (fieldId.isEmpty() || tx.update("DELETE FROM trusted_benign_mark WHERE field_id = ?", fieldId.get()) == 0) {
        return false;
      }
      audit(tx, fieldId.get(), AuditAction.REOPEN, author, note);
      writeMirror(tx);
      return true;
    });
  }

  /** Adds a comment to the field's audit log. */
  public AuditEntry comment(FieldKey field, String author, String text) {
    requireText(author, "author");
    requireText(text, "comment");
    requireShort(text, "comment");
    return db.writeExclusive("comment on " + field, tx -> {
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
   * Brings the database's marks in line with the mirror file, which is the team's truth once committed: marks the
   * file has and the database lacks (or holds with another author or note) are imported, audited as
   * {@code IMPORT_MARK} under the mark's author; marks the database has that the file held when this database last
   * read or wrote it, but no longer holds, were reopened by a teammate and are removed, audited as {@code REOPEN} —
   * at most {@link #MAX_UNCONFIRMED_REMOVALS} of them; more are held ({@link MirrorSync#held()}) until
   * {@link RemovalPolicy#ACCEPT} or {@link #keepMarks()}. A database mark the file never held is kept (it reaches the
   * file with the next mark or reopen). Nothing happens if the file does not exist. Runs when the store opens; call
   * it again when the file changes (e.g. after a pull).
   */
  public MirrorSync syncFromMirror() {
    return syncFromMirror(RemovalPolicy.HOLD_SEVERAL);
  }

  /** As {@link #syncFromMirror()}, removing the marks the file dropped as {@code policy} says. */
  public MirrorSync syncFromMirror(RemovalPolicy policy) {
    if (!mirror.exists()) {
      return MirrorSync.none();
    }
    List<TrustedBenignMark> inFile = mirror.read();
    SyncPlan plan = db.read("compare the marks with " + mirror.file(), tx -> plan(tx, inFile, policy));
    if (!plan.needsWrite()) {
      return plan.result();
    }
    return db.writeExclusive("import the marks of " + mirror.file(), tx -> sync(tx, policy));
  }

  /**
   * Keeps the marks whose removal is held, and every other mark of the database, by writing them all into the mirror
   * file (after importing what the file adds). Returns the marks that were held and are now back in the file.
   */
  public List<FieldKey> keepMarks() {
    return db.writeExclusive("write the marks back into " + mirror.file(), tx -> {
      MirrorSync sync = sync(tx, RemovalPolicy.HOLD_SEVERAL);
      writeMirror(tx);
      return sync.held();
    });
  }

  /**
   * Marking and reopening sync first, inside their transaction, so a file that changed since this store last looked
   * (a pull while the editor stayed open) is merged, not overwritten. They then rewrite the file from the database,
   * which would put back marks whose removal is held; so they are refused until someone decides.
   */
  private void syncBeforeWriting(Tx tx) throws SQLException {
    MirrorSync sync = sync(tx, RemovalPolicy.HOLD_SEVERAL);
    if (!sync.held().isEmpty()) {
      throw new MirrorRemovalsHeldException(mirror.file(), sync.held());
    }
  }

  /** The sync inside a write transaction. */
  private MirrorSync sync(Tx tx, RemovalPolicy policy) throws SQLException {
    if (!mirror.exists()) {
      return MirrorSync.none();
    }
    List<TrustedBenignMark> inFile = mirror.read();
    SyncPlan plan = plan(tx, inFile, policy);
    if (!plan.needsWrite()) {
      return plan.result();
    }
    for (TrustedBenignMark mark : plan.toImport()) {
      long fieldId = FieldTable.ensure(tx, mark.field());
      tx.update(
          "INSERT INTO trusted_benign_mark(field_id, author, note, marked_at) VALUES (?, ?, ?, ?)"
              + " ON CONFLICT(field_id) DO UPDATE SET author = excluded.author, note = excluded.note,"
              + " marked_at = excluded.marked_at",
          fieldId, mark.author(), mark.note(), mark.markedAt());
      audit(tx, fieldId, AuditAction.IMPORT_MARK, mark.author(), "imported from " + mirror.file());
    }
    for (FieldKey field : plan.toRemove()) {
      long fieldId = FieldTable.find(tx, field).orElseThrow();
      tx.update("DELETE FROM trusted_benign_mark WHERE field_id = ?", fieldId);
      audit(tx, fieldId, AuditAction.REOPEN, MIRROR_AUTHOR,
          "no longer in " + mirror.file() + " (reopened in a committed change)");
    }
    base.write(tx, plan.newBase());
    return plan.result();
  }

  /**
   * What a sync does. {@code newBase} keeps the held marks as if the file still held them, so they stay held (and
   * listed) at every sync until someone decides, instead of becoming "database marks the file never held".
   */
  private record SyncPlan(
      List<TrustedBenignMark> toImport, List<FieldKey> toRemove, List<FieldKey> held, Set<FieldKey> newBase,
      boolean baseOutdated) {
    boolean needsWrite() {
      return !toImport.isEmpty() || !toRemove.isEmpty() || baseOutdated;
    }

    MirrorSync result() {
      return new MirrorSync(toImport, toRemove, held);
    }
  }

  private SyncPlan plan(Tx tx, List<TrustedBenignMark> inFile, RemovalPolicy policy) throws SQLException {
    Map<FieldKey, TrustedBenignMark> inDb = new HashMap<>();
    for (TrustedBenignMark mark : all(tx)) {
      inDb.put(mark.field(), mark);
    }
    Set<FieldKey> base = this.base.read(tx);
    Set<FieldKey> fileKeys = new HashSet<>();
    List<TrustedBenignMark> toImport = new ArrayList<>();
    for (TrustedBenignMark mark : inFile) {
      fileKeys.add(mark.field());
      TrustedBenignMark current = inDb.get(mark.field());
      // A mark the file held at the last sync that the store no longer has was reopened in the store (in a shared
      // store, by a teammate): this file is behind, not new. (A store of one checkout never gets here: its reopens
      // rewrite the file.)
      boolean reopenedInStore = current == null && base.contains(mark.field());
      if (!reopenedInStore
          && (current == null || !current.author().equals(mark.author()) || !current.note().equals(mark.note()))) {
        toImport.add(mark);
      }
    }
    List<FieldKey> dropped = inDb.keySet().stream()
        .filter(field -> !fileKeys.contains(field) && base.contains(field))
        .sorted()
        .toList();
    boolean confirmed = policy == RemovalPolicy.ACCEPT || dropped.size() <= MAX_UNCONFIRMED_REMOVALS;
    List<FieldKey> held = confirmed ? List.of() : dropped;
    Set<FieldKey> newBase = new HashSet<>(fileKeys);
    newBase.addAll(held);
    return new SyncPlan(toImport, confirmed ? dropped : List.of(), held, newBase, !base.equals(newBase));
  }

  /** Rewrites the mirror file from the database and remembers what it now holds. */
  private void writeMirror(Tx tx) throws SQLException {
    List<TrustedBenignMark> marks = all(tx);
    mirror.write(marks);
    base.write(tx, marks.stream().map(TrustedBenignMark::field).toList());
  }

  private static long audit(Tx tx, long fieldId, AuditAction action, String author, String note)
      throws SQLException {
    return tx.insert(
        "INSERT INTO audit_log(field_id, action, author, note, at) VALUES (?, ?, ?, ?, ?)",
        fieldId, action, author, note, tx.now());
  }

  /** Refuses a text longer than {@link TrustedBenignMark#MAX_NOTE}; {@code null} (an optional note) passes. */
  public static void requireShort(String value, String what) {
    if (value != null && value.length() > TrustedBenignMark.MAX_NOTE) {
      throw new IllegalArgumentException("the " + what + " is " + value.length() + " characters long; at most "
          + TrustedBenignMark.MAX_NOTE + " are kept. Shorten it, or put the details in an issue and link to it.");
    }
  }

  private static void requireText(String value, String what) {
    if (Objects.requireNonNull(value, what).isBlank()) {
      throw new IllegalArgumentException("the " + what + " must not be empty");
    }
  }
}
