package dev.racetriage.store.races;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.Page;
import dev.racetriage.store.StoreException;
import dev.racetriage.store.fields.FieldTable;
import dev.racetriage.store.marks.TrustedBenignMark;
import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.sqlite.JsonColumns;
import dev.racetriage.store.sqlite.RowMapper;
import dev.racetriage.store.sqlite.Tx;
import dev.racetriage.store.verdicts.Verdict;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** Races found by detection runs: recording them, and the lists and counts the LSP server and dashboard show. */
public final class RaceRepository {
  private static final String FROM =
      " FROM race r JOIN field f ON f.id = r.field_id LEFT JOIN trusted_benign_mark m ON m.field_id = r.field_id ";
  private static final String SELECT_SUMMARY =
      "SELECT r.id, f.field_key, r.has_wr, r.has_ww, r.verdict, r.verdict_at, r.first_seen_at, r.last_seen_at,"
          + " m.author AS mark_author, m.note AS mark_note, m.marked_at AS mark_at,"
          + " (SELECT count(*) FROM race_test t WHERE t.race_id = r.id) AS tests,"
          + " (SELECT count(*) FROM trial t WHERE t.race_id = r.id) AS trials,"
          + " r.lifecycle, r.last_run_id"
          + FROM;
  /** Races that still exist: every list, count and editor view leaves fixed ones out unless asked for them. */
  private static final String NOT_FIXED = "r.lifecycle <> 'FIXED'";
  /** Severity rank of the verdict column: the order of {@link Verdict}'s constants. */
  private static final String SEVERITY =
      "CASE r.verdict " + EnumSet.allOf(Verdict.class).stream()
          .map(v -> "WHEN '" + v.name() + "' THEN " + v.ordinal())
          .collect(Collectors.joining(" ")) + " END";
  private static final RowMapper<RaceSummary> SUMMARY = row -> {
    FieldKey field = FieldKey.parse(row.getString("field_key"));
    String markAuthor = row.getString("mark_author");
    TrustedBenignMark mark = markAuthor == null
        ? null
        : new TrustedBenignMark(field, markAuthor, row.getString("mark_note"), Tx.instant(row, "mark_at"));
    return new RaceSummary(
        row.getLong("id"),
        field,
        kinds(row.getBoolean("has_wr"), row.getBoolean("has_ww")),
        Verdict.valueOf(row.getString("verdict")),
        Tx.instant(row, "verdict_at"),
        mark,
        row.getInt("tests"),
        row.getInt("trials"),
        Tx.instant(row, "first_seen_at"),
        Tx.instant(row, "last_seen_at"),
        Lifecycle.valueOf(row.getString("lifecycle")),
        nullableLong(row, "last_run_id"));
  };
  private static final RowMapper<RaceEvent> EVENT = row -> new RaceEvent(
      Lifecycle.valueOf(row.getString("event")),
      nullableLong(row, "run_id"),
      row.getString("commit_id"),
      row.getString("note"),
      Tx.instant(row, "at"));
  private static final RowMapper<AccessSite> ACCESS =
      row -> new AccessSite(
          AccessType.valueOf(row.getString("access")),
          row.getString("thread"),
          row.getString("file"),
          row.getInt("line"),
          JsonColumns.strings(row.getString("stack")));

  private final Database db;

  public RaceRepository(Database db) {
    this.db = db;
  }

  /**
   * Records a race seen by run {@code runId} (may be null): creates it as PENDING, or merges the kinds, accesses and
   * tests into the stored race and updates when it was last seen. A race that was {@link Lifecycle#FIXED} is
   * {@link Lifecycle#REGRESSED} from now on, with an event naming the run. Returns the race's row.
   */
  public RaceSummary upsert(Race race, Long runId) {
    return db.write("record the race on " + race.field(), tx -> {
      long fieldId = FieldTable.ensure(tx, race.field());
      boolean wasFixed = tx.queryOne("SELECT lifecycle FROM race WHERE field_id = ?", row -> row.getString(1), fieldId)
          .map(Lifecycle.FIXED.name()::equals).orElse(false);
      boolean wr = race.kinds().contains(RaceKind.WR);
      boolean ww = race.kinds().contains(RaceKind.WW);
      tx.update(
          "INSERT INTO race(field_id, has_wr, has_ww, first_seen_at, last_seen_at, first_run_id, last_run_id)"
              + " VALUES (?, ?, ?, ?, ?, ?, ?)"
              + " ON CONFLICT(field_id) DO UPDATE SET has_wr = " + larger("race.has_wr", "excluded.has_wr") + ","
              + " has_ww = " + larger("race.has_ww", "excluded.has_ww") + ", last_seen_at = excluded.last_seen_at,"
              + " last_run_id = coalesce(excluded.last_run_id, race.last_run_id)",
          fieldId, wr, ww, tx.now(), tx.now(), runId, runId);
      long raceId = tx.queryLong("SELECT id FROM race WHERE field_id = ?", fieldId);
      for (AccessSite access : race.accesses()) {
        tx.update(
            "INSERT INTO race_access(race_id, site_key, access, thread, file, line, stack) VALUES (?, ?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT(race_id, site_key) DO UPDATE SET thread = excluded.thread",
            raceId, access.siteKey(), access.type(), access.thread(), access.file(), access.line(),
            JsonColumns.write(access.stack()));
      }
      for (String test : race.tests()) {
        tx.update("INSERT INTO race_test(race_id, test) VALUES (?, ?) ON CONFLICT DO NOTHING", raceId, test);
      }
      if (wasFixed) {
        changeLifecycle(tx, raceId, Lifecycle.REGRESSED, runId,
            "detected again" + (runId == null ? "" : " by run #" + runId) + " after it was fixed");
      }
      return summary(tx, race.field()).orElseThrow();
    });
  }

  /**
   * Marks the race on {@code field} {@link Lifecycle#FIXED} by run {@code runId} (its commit is the run's), with
   * {@code note} saying why (which tests ran without showing it). Does nothing to a race already fixed.
   *
   * @return whether the race changed
   */
  public boolean markFixed(FieldKey field, long runId, String note) {
    return db.write("record that the race on " + field + " is fixed", tx -> {
      long raceId = requireId(tx, field);
      String state = tx.queryOne("SELECT lifecycle FROM race WHERE id = ?", row -> row.getString(1), raceId).orElseThrow();
      if (Lifecycle.FIXED.name().equals(state)) return false;
      changeLifecycle(tx, raceId, Lifecycle.FIXED, runId, note);
      return true;
    });
  }

  private static void changeLifecycle(Tx tx, long raceId, Lifecycle state, Long runId, String note)
      throws SQLException {
    // a run outside git has no commit (a null column: queryOne cannot carry it)
    String commit = runId == null ? null
        : tx.query("SELECT commit_id FROM run WHERE id = ?", row -> row.getString(1), runId).stream()
            .filter(java.util.Objects::nonNull).findFirst().orElse(null);
    tx.update("UPDATE race SET lifecycle = ?, lifecycle_at = ?, lifecycle_run_id = ?, lifecycle_commit = ? WHERE id = ?",
        state.name(), tx.now(), runId, commit, raceId);
    tx.update("INSERT INTO race_event(race_id, run_id, event, commit_id, note, at) VALUES (?, ?, ?, ?, ?, ?)",
        raceId, runId, state.name(), commit, note, tx.now());
  }

  /**
   * The races that are not fixed, each with the tests that exercised it (the tests a detection must run, and see pass,
   * before it can call a race it no longer sees fixed).
   */
  public Map<FieldKey, List<String>> unfixedWithTests() {
    return db.read("read the races that are not fixed", tx -> {
      Map<FieldKey, List<String>> byField = new java.util.LinkedHashMap<>();
      for (Map.Entry<FieldKey, Long> race : tx.query(
          "SELECT f.field_key, r.id FROM race r JOIN field f ON f.id = r.field_id WHERE " + NOT_FIXED
              + " ORDER BY f.field_key",
          row -> Map.entry(FieldKey.parse(row.getString(1)), row.getLong(2)))) {
        byField.put(race.getKey(), tests(tx, race.getValue()));
      }
      return byField;
    });
  }

  /** The lifecycle changes of a race, oldest first. */
  public static List<RaceEvent> events(Tx tx, long raceId) throws SQLException {
    return tx.query("SELECT event, run_id, commit_id, note, at FROM race_event WHERE race_id = ? ORDER BY id", EVENT,
        raceId);
  }

  public Optional<RaceSummary> find(FieldKey field) {
    return db.read("read the race on " + field, tx -> summary(tx, field));
  }

  public static Optional<RaceSummary> summary(Tx tx, FieldKey field) throws SQLException {
    return tx.queryOne(SELECT_SUMMARY + "WHERE f.field_key = ?", SUMMARY, field.toString());
  }

  /** The fields that have a race, by key; one light query (for telling a mistyped field key from a real one). */
  public List<FieldKey> fields() {
    return db.read("list the raced fields", tx -> tx.query(
        "SELECT f.field_key FROM race r JOIN field f ON f.id = r.field_id ORDER BY f.field_key",
        row -> FieldKey.parse(row.getString(1))));
  }

  /** The races on fields of {@code className} and its nested classes (for one editor file); fixed ones are left out. */
  public List<RaceSummary> forClass(String className) {
    return db.read("read the races of " + className, tx ->
        tx.query(
            SELECT_SUMMARY + "WHERE (f.class_name = ? OR substr(f.class_name, 1, ?) = ?) AND " + NOT_FIXED
                + " ORDER BY f.field_key",
            SUMMARY, className, className.length() + 1, className + "$"));
  }

  /** One page of races matching {@code query}, and how many match in all. Both come from one snapshot. */
  public Page<RaceSummary> list(RaceQuery query) {
    List<Object> args = new ArrayList<>();
    String where = where(query, args);
    return db.read("list races", tx -> {
      long total = tx.queryLong("SELECT count(*)" + FROM + where, args.toArray());
      List<Object> pageArgs = new ArrayList<>(args);
      pageArgs.add(query.limit());
      pageArgs.add(query.offset());
      List<RaceSummary> items = tx.query(
          SELECT_SUMMARY + where + " ORDER BY " + orderBy(query) + " LIMIT ? OFFSET ?", SUMMARY, pageArgs.toArray());
      return new Page<>(items, total, query.offset(), query.limit());
    });
  }

  private static String where(RaceQuery query, List<Object> args) {
    List<String> conditions = new ArrayList<>();
    if (!query.verdicts().isEmpty()) {
      conditions.add("r.verdict IN (" + String.join(", ", query.verdicts().stream().map(v -> "?").toList()) + ")");
      query.verdicts().stream().sorted().forEach(v -> args.add(v.name()));
    }
    if (query.triageState() == null) {
      conditions.add(NOT_FIXED);
    } else {
      conditions.add(switch (query.triageState()) {
        // a regression is open too: "open" lists every race that waits for a decision
        case OPEN -> NOT_FIXED + " AND m.field_id IS NULL";
        case REGRESSED -> "r.lifecycle = 'REGRESSED' AND m.field_id IS NULL";
        case TRUSTED_BENIGN -> NOT_FIXED + " AND m.field_id IS NOT NULL";
        case FIXED -> "r.lifecycle = 'FIXED'";
      });
    }
    if (query.classPrefix() != null) {
      conditions.add("substr(f.class_name, 1, ?) = ?");
      args.add(query.classPrefix().length());
      args.add(query.classPrefix());
    }
    if (query.text() != null) {
      String pattern = "%" + query.text().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
      // lower() on both sides: SQLite's LIKE ignores ASCII case, PostgreSQL's does not
      conditions.add("(lower(f.field_key) LIKE lower(?) ESCAPE '\\'"
          + " OR EXISTS (SELECT 1 FROM race_access a WHERE a.race_id = r.id AND lower(a.file) LIKE lower(?) ESCAPE '\\')"
          + " OR EXISTS (SELECT 1 FROM race_test t WHERE t.race_id = r.id AND lower(t.test) LIKE lower(?) ESCAPE '\\'))");
      args.add(pattern);
      args.add(pattern);
      args.add(pattern);
    }
    return conditions.isEmpty() ? "" : "WHERE " + String.join(" AND ", conditions);
  }

  private static String orderBy(RaceQuery query) {
    String direction = query.descending() ? " DESC" : " ASC";
    String primary = switch (query.sort()) {
      case SEVERITY -> SEVERITY + direction;
      case FIELD -> "f.field_key" + direction;
      case LAST_SEEN -> "r.last_seen_at" + direction;
      case TRIALS -> "trials" + direction;
    };
    return primary + ", f.field_key ASC";
  }

  /**
   * How many races that are not fixed have each current verdict, how many of them are marked trusted-benign, their
   * total, and apart from those how many races are fixed and how many open ones are regressions.
   */
  public VerdictCounts counts() {
    return db.read("count races by verdict", tx -> {
      Map<Verdict, Long> byVerdict = new EnumMap<>(Verdict.class);
      for (Map.Entry<Verdict, Long> entry : tx.query(
          "SELECT verdict, count(*) FROM race r WHERE " + NOT_FIXED + " GROUP BY verdict",
          row -> Map.entry(Verdict.valueOf(row.getString(1)), row.getLong(2)))) {
        byVerdict.put(entry.getKey(), entry.getValue());
      }
      long marked = tx.queryLong(
          "SELECT count(*) FROM race r JOIN trusted_benign_mark m ON m.field_id = r.field_id WHERE " + NOT_FIXED);
      long total = byVerdict.values().stream().mapToLong(Long::longValue).sum();
      long fixed = tx.queryLong("SELECT count(*) FROM race WHERE lifecycle = 'FIXED'");
      long regressed = tx.queryLong("SELECT count(*) FROM race r LEFT JOIN trusted_benign_mark m ON m.field_id = "
          + "r.field_id WHERE r.lifecycle = 'REGRESSED' AND m.field_id IS NULL");
      return new VerdictCounts(byVerdict, marked, total, fixed, regressed);
    });
  }

  /**
   * Every race's accesses in one read-only query, by field key as stored (not parsed: a row this version cannot
   * parse must not fail the others), fixed races included. For deriving each race's {@link CodeScope} over a list.
   */
  public Map<String, List<AccessSite>> accessesByField() {
    return db.read("read the races' accesses", tx -> {
      Map<String, List<AccessSite>> byField = new java.util.LinkedHashMap<>();
      for (Map.Entry<String, AccessSite> row : tx.query(
          "SELECT f.field_key, a.access, a.thread, a.file, a.line, a.stack FROM race_access a"
              + " JOIN race r ON r.id = a.race_id JOIN field f ON f.id = r.field_id ORDER BY a.id",
          row -> Map.entry(row.getString("field_key"), ACCESS.map(row)))) {
        byField.computeIfAbsent(row.getKey(), k -> new ArrayList<>()).add(row.getValue());
      }
      return byField;
    });
  }

  public static List<AccessSite> accesses(Tx tx, long raceId) throws SQLException {
    return tx.query(
        "SELECT access, thread, file, line, stack FROM race_access WHERE race_id = ? ORDER BY id", ACCESS, raceId);
  }

  public static List<String> tests(Tx tx, long raceId) throws SQLException {
    return tx.query("SELECT test FROM race_test WHERE race_id = ? ORDER BY test", row -> row.getString(1), raceId);
  }

  /** The id of the race on {@code field}, or a {@link StoreException} saying the race must be recorded first. */
  public static long requireId(Tx tx, FieldKey field) throws SQLException {
    return tx.queryOne(
            "SELECT r.id FROM race r JOIN field f ON f.id = r.field_id WHERE f.field_key = ?",
            row -> row.getLong(1), field.toString())
        .orElseThrow(() -> new StoreException(
            "no race is recorded on " + field + "; record it (RaceRepository.upsert) before its trials or verdicts"));
  }

  /** The larger of two values, in SQL both engines accept (SQLite's two-argument max() is PostgreSQL's greatest()). */
  public static String larger(String a, String b) {
    return "CASE WHEN " + b + " > " + a + " THEN " + b + " ELSE " + a + " END";
  }

  private static Long nullableLong(java.sql.ResultSet row, String column) throws SQLException {
    long value = row.getLong(column);
    return row.wasNull() ? null : value;
  }

  private static Set<RaceKind> kinds(boolean wr, boolean ww) {
    EnumSet<RaceKind> kinds = EnumSet.noneOf(RaceKind.class);
    if (wr) {
      kinds.add(RaceKind.WR);
    }
    if (ww) {
      kinds.add(RaceKind.WW);
    }
    return kinds;
  }
}
