package dev.racetriage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.schema.Migration;
import dev.racetriage.store.schema.Migrations;
import dev.racetriage.store.schema.Migrator;
import dev.racetriage.store.schema.SchemaIdentity;
import dev.racetriage.store.sqlite.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaMigrationTest {
  @TempDir Path project;

  @Test
  void createsTheLatestSchemaInANewFile() throws Exception {
    Path file = project.resolve(".racetriage/triage.db");
    int latest = Migrations.bundled().latestVersion();
    try (TriageStore store = TriageStore.openProject(project)) {
      assertEquals(file, store.file());
      assertEquals(latest, store.schemaVersion());
    }
    assertTrue(Files.exists(file));
    assertEquals(latest, pragma(file, "user_version"));
    assertEquals(SchemaIdentity.APPLICATION_ID, pragma(file, "application_id"));
    assertEquals(
        List.of("audit_log", "candidate", "field", "mirror_base", "race", "race_access", "race_event", "race_test", "run",
            "trial", "trial_item", "trusted_benign_mark", "verdict", "work_item", "worker"),
        tables(file));
    assertEquals("wal", text(file, "PRAGMA journal_mode"));
    String gitignore = Files.readString(project.resolve(".racetriage/.gitignore"));
    assertTrue(gitignore.lines().anyMatch("*.db"::equals), gitignore);
    assertTrue(gitignore.lines().noneMatch(line -> !line.startsWith("#") && line.contains("json")),
        "the marks file must stay committable");
  }

  @Test
  void migratesAnEmptyExistingFile() throws Exception {
    Path file = project.resolve("empty.db");
    Files.createFile(file);
    try (TriageStore store = TriageStore.open(file, project)) {
      assertEquals(Migrations.bundled().latestVersion(), store.schemaVersion());
    }
    assertEquals(SchemaIdentity.APPLICATION_ID, pragma(file, "application_id"));
  }

  @Test
  void reopeningIsIdempotentAndKeepsData() throws Exception {
    Path file = project.resolve("triage.db");
    FieldKey field = FieldKey.parse("pkg.Cache.hash");
    try (TriageStore store = TriageStore.open(file, project)) {
      store.queue().enqueue(field, "first", 0);
    }
    List<String> tablesBefore = tables(file);
    for (int i = 0; i < 2; i++) {
      try (TriageStore store = TriageStore.open(file, project)) {
        assertEquals(1, store.queue().list(dev.racetriage.store.queue.WorkState.PENDING, 10).size());
      }
    }
    assertEquals(tablesBefore, tables(file));
    assertEquals(Migrations.bundled().latestVersion(), pragma(file, "user_version"));
  }

  @Test
  void aFailedUnitOfWorkRollsBackAsAWhole() {
    try (TriageStore store = TriageStore.open(project.resolve("tx.db"), project)) {
      IllegalStateException error = assertThrows(IllegalStateException.class, () -> store.inTransaction(() -> {
        store.runs().start("scan", null, null);
        store.queue().enqueue(FieldKey.parse("pkg.A.x"), "test", 0);
        throw new IllegalStateException("boom");
      }));
      assertEquals("boom", error.getMessage());
      assertTrue(store.runs().recent(10).isEmpty());
      assertTrue(store.queue().list(dev.racetriage.store.queue.WorkState.PENDING, 10).isEmpty());
    }
  }

  @Test
  void dataVersionChangesWhenAnyConnectionCommits() {
    Path file = project.resolve("watch.db");
    try (TriageStore watcher = TriageStore.open(file, project);
        TriageStore other = TriageStore.open(file, project)) {
      long initial = watcher.dataVersion();
      assertEquals(initial, watcher.dataVersion(), "reading changes nothing");
      other.runs().start("daemon", null, null);
      long afterOther = watcher.dataVersion();
      assertTrue(afterOther != initial, "a commit by another store is seen");
      watcher.queue().enqueue(FieldKey.parse("p.A.x"), "own write", 0);
      assertTrue(watcher.dataVersion() != afterOther, "a commit by this store's own writer is seen");
    }
  }

  @Test
  void connectionsEnforceForeignKeys() {
    Path file = project.resolve("fk.db");
    try (TriageStore store = TriageStore.open(file, project)) {
      assertTrue(store.runs().recent(1).isEmpty());
    }
    try (Database db = Database.open(file, Clock.systemUTC())) {
      StoreException error = assertThrows(StoreException.class, () -> db.write("insert an orphan trial", tx ->
          tx.update("INSERT INTO trial(race_id, test, heuristic, seed, outcome, duration_ms, reads, stale_reads,"
              + " recorded_at) VALUES (999, 't', 'sc', 1, 'PASS', 1, 0, 0, 0)")));
      assertTrue(error.getMessage().contains("FOREIGN KEY"), error.getMessage());
      assertTrue(error.getMessage().contains(file.toString()), error.getMessage());
    }
  }

  @Test
  void aVersionOneFileIsUpgradedKeepingItsData() throws Exception {
    Path file = project.resolve("v1.db");
    Migrations bundled = Migrations.bundled();
    try (Database db = Database.open(file, Clock.systemUTC())) {
      new Migrator(new Migrations(bundled.steps().subList(0, 1))).migrate(db);
      db.write("seed version 1", tx -> tx.update(
          "INSERT INTO run(kind, started_at, status) VALUES ('triage', 0, 'SUCCEEDED')"));
    }
    assertEquals(1, pragma(file, "user_version"));
    try (TriageStore store = TriageStore.open(file, project)) {
      assertEquals(bundled.latestVersion(), store.schemaVersion());
      assertEquals("triage", store.runs().recent(1).get(0).kind());
    }
    assertEquals(bundled.latestVersion(), pragma(file, "user_version"));
    assertTrue(tables(file).contains("mirror_base"));
  }

  @Test
  void stepsRunInOrderFromTheFileVersionAndAFailedStepChangesNothing() throws Exception {
    Path file = project.resolve("steps.db");
    Migration one = new Migration(1, "one", "CREATE TABLE a (x INTEGER);\n");
    Migration two = new Migration(2, "two", "-- a second step\nALTER TABLE a ADD COLUMN y TEXT;\nCREATE TABLE b (z);\n");
    Migration broken = new Migration(3, "broken", "CREATE TABLE c (q);\nTHIS IS NOT SQL;\n");
    try (Database db = Database.open(file, Clock.systemUTC())) {
      assertEquals(0, new Migrator(new Migrations(List.of(one))).migrate(db));
    }
    assertEquals(1, pragma(file, "user_version"));
    try (Database db = Database.open(file, Clock.systemUTC())) {
      assertEquals(1, new Migrator(new Migrations(List.of(one, two))).migrate(db));
    }
    assertEquals(2, pragma(file, "user_version"));
    assertEquals(List.of("a", "b"), tables(file));
    try (Database db = Database.open(file, Clock.systemUTC())) {
      StoreException error = assertThrows(
          StoreException.class, () -> new Migrator(new Migrations(List.of(one, two, broken))).migrate(db));
      assertTrue(error.getMessage().contains("migration from version 2"), error.getMessage());
    }
    assertEquals(2, pragma(file, "user_version"), "the failed step was rolled back");
    assertEquals(List.of("a", "b"), tables(file));
  }

  static int pragma(Path file, String name) throws SQLException {
    return Integer.parseInt(text(file, "PRAGMA " + name));
  }

  static String text(Path file, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getString(1);
    }
  }

  static List<String> tables(Path file) throws SQLException {
    List<String> names = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
      while (r.next()) {
        names.add(r.getString(1));
      }
    }
    return names;
  }
}
