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
          + " (SELECT count(*) FROM trial t WHERE t.race_id = r.id) AS trials"
          + FROM;
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
        Tx.instant(row, "last_seen_at"));
  };
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
   * tests into the stored race and updates when it was last seen. Returns the race's row.
   */
  public RaceSummary upsert(Race race, Long runId) {
    return db.write("record the race on " + race.field(), tx -> {
      long fieldId = FieldTable.ensure(tx, race.field());
      boolean wr = race.kinds().contains(RaceKind.WR);
      boolean ww = race.kinds().contains(RaceKind.WW);
      tx.update(
          "INSERT INTO race(field_id, has_wr, has_ww, first_seen_at, last_seen_at, first_run_id, last_run_id)"
              + " VALUES (?, ?, ?, ?, ?, ?, ?)"
              + " ON CONFLICT(field_id) DO UPDATE SET has_wr = max(has_wr, excluded.has_wr),"
              + " has_ww = max(has_ww, excluded.has_ww), last_seen_at = excluded.last_seen_at,"
              + " last_run_id = coalesce(excluded.last_run_id, last_run_id)",
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
        tx.update("INSERT OR IGNORE INTO race_test(race_id, test) VALUES (?, ?)", raceId, test);
      }
      return summary(tx, race.field()).orElseThrow();
    });
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

  /** The races on fields of {@code className} and its nested classes (for one editor file). */
  public List<RaceSummary> forClass(String className) {
    return db.read("read the races of " + className, tx ->
        tx.query(
            SELECT_SUMMARY + "WHERE f.class_name = ? OR substr(f.class_name, 1, ?) = ? ORDER BY f.field_key",
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
    if (query.triageState() == TriageState.OPEN) {
      conditions.add("m.field_id IS NULL");
    } else if (query.triageState() == TriageState.TRUSTED_BENIGN) {
      conditions.add("m.field_id IS NOT NULL");
    }
    if (query.classPrefix() != null) {
      conditions.add("substr(f.class_name, 1, ?) = ?");
      args.add(query.classPrefix().length());
      args.add(query.classPrefix());
    }
    if (query.text() != null) {
      String pattern = "%" + query.text().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
      conditions.add("(f.field_key LIKE ? ESCAPE '\\'"
          + " OR EXISTS (SELECT 1 FROM race_access a WHERE a.race_id = r.id AND a.file LIKE ? ESCAPE '\\')"
          + " OR EXISTS (SELECT 1 FROM race_test t WHERE t.race_id = r.id AND t.test LIKE ? ESCAPE '\\'))");
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

  /** How many races have each current verdict, how many are marked trusted-benign, and the total. */
  public VerdictCounts counts() {
    return db.read("count races by verdict", tx -> {
      Map<Verdict, Long> byVerdict = new EnumMap<>(Verdict.class);
      for (Map.Entry<Verdict, Long> entry : tx.query(
          "SELECT verdict, count(*) FROM race GROUP BY verdict",
          row -> Map.entry(Verdict.valueOf(row.getString(1)), row.getLong(2)))) {
        byVerdict.put(entry.getKey(), entry.getValue());
      }
      long marked = tx.queryLong(
          "SELECT count(*) FROM race r JOIN trusted_benign_mark m ON m.field_id = r.field_id");
      long total = byVerdict.values().stream().mapToLong(Long::longValue).sum();
      return new VerdictCounts(byVerdict, marked, total);
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
