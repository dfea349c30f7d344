package dev.racetriage.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.UnusableDatabaseException.Reason;
import dev.racetriage.store.schema.Migrations;
import dev.racetriage.store.schema.SchemaIdentity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files racetriage must refuse: one clear error naming the file, and not one byte changed. */
class UnusableDatabaseTest {
  @TempDir Path project;

  @Test
  void randomBytesAreNotADatabase() throws Exception {
    Path file = project.resolve("triage.db");
    byte[] noise = new byte[8192];
    new Random(42).nextBytes(noise);
    Files.write(file, noise);
    assertRefused(file, Reason.NOT_A_DATABASE, "not an SQLite file");
  }

  @Test
  void aTextFileIsNotADatabase() throws Exception {
    Path file = project.resolve("notes.txt");
    Files.writeString(file, "just some notes\n");
    assertRefused(file, Reason.NOT_A_DATABASE, "not an SQLite file");
  }

  @Test
  void anSqliteHeaderFollowedByGarbageIsCorrupt() throws Exception {
    Path file = project.resolve("triage.db");
    byte[] bytes = new byte[4096];
    new Random(7).nextBytes(bytes);
    byte[] header = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(header, 0, bytes, 0, header.length);
    Files.write(file, bytes);
    assertRefused(file, Reason.CORRUPT, "is corrupt");
  }

  @Test
  void aRacetriageDatabaseWithDamagedPagesIsCorrupt() throws Exception {
    Path file = project.resolve("triage.db");
    try (TriageStore store = TriageStore.open(file, project)) {
      store.runs().start("scan", null, null);
    }
    // Keep page 1's header (so the file still claims to be ours) and destroy the rest, schema pages included.
    byte[] bytes = Files.readAllBytes(file);
    byte[] noise = new byte[bytes.length - 100];
    new Random(3).nextBytes(noise);
    System.arraycopy(noise, 0, bytes, 100, noise.length);
    Files.write(file, bytes);
    assertRefused(file, Reason.CORRUPT, "is corrupt");
  }

  @Test
  void eightKilobytesOfGarbageInsideAGoodDatabaseAreFoundWhenItIsOpened() throws Exception {
    Path file = project.resolve("triage.db");
    CorruptDatabases.populate(file, project);
    CorruptDatabases.overwriteMiddle(file, 8192, 11);
    // The damage is in pages that opening never reads (the candidates'), so only a check of the whole file finds it.
    assertRefused(file, Reason.CORRUPT, "is corrupt");
  }

  @Test
  void anotherProgramsDatabaseIsForeign() throws Exception {
    Path file = project.resolve("app.db");
    execute(file, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)",
        "INSERT INTO customers(name) VALUES ('Ada')");
    assertRefused(file, Reason.FOREIGN, "customers");
  }

  @Test
  void anotherProgramsApplicationIdIsForeignEvenWithoutTables() throws Exception {
    Path file = project.resolve("other.db");
    execute(file, "PRAGMA application_id = 1234", "CREATE TABLE t (x)", "DROP TABLE t");
    assertRefused(file, Reason.FOREIGN, "application_id 1234");
  }

  @Test
  void aNewerSchemaIsRefused() throws Exception {
    Path file = project.resolve("triage.db");
    try (TriageStore store = TriageStore.open(file, project)) {
      store.runs().start("scan", null, null);
    }
    int newer = Migrations.bundled().latestVersion() + 5;
    execute(file, "PRAGMA user_version = " + newer);
    assertRefused(file, Reason.NEWER_SCHEMA, "schema version " + newer);
  }

  private void assertRefused(Path file, Reason reason, String detail) throws Exception {
    UnusableDatabaseException error = refuse(file);
    assertEquals(reason, error.reason());
    assertTrue(error.getMessage().contains(detail), error.getMessage());
  }

  /**
   * Opens {@code file}, expects the refusal, and checks the file is byte for byte as before. Only a file that claims
   * to be racetriage's reaches SQLite (to find it corrupt), and SQLite may leave its -wal/-shm beside a WAL file;
   * every other refusal is decided without opening, so nothing at all may appear.
   */
  private UnusableDatabaseException refuse(Path file) throws Exception {
    byte[] before = Files.readAllBytes(file);
    Set<Path> siblingsBefore = siblings(file);
    UnusableDatabaseException error =
        assertThrows(UnusableDatabaseException.class, () -> TriageStore.open(file, project));
    assertEquals(file.toAbsolutePath(), error.file());
    assertTrue(error.getMessage().contains(file.toAbsolutePath().toString()), error.getMessage());
    assertTrue(error.getMessage().contains("Nothing was changed"), error.getMessage());
    assertArrayEquals(before, Files.readAllBytes(file), "the file was modified");
    Set<Path> created = new HashSet<>(siblings(file));
    created.removeAll(siblingsBefore);
    if (error.reason() == Reason.CORRUPT) {
      created.remove(Path.of(file + "-wal"));
      created.remove(Path.of(file + "-shm"));
    }
    assertEquals(Set.of(), created, "files were created next to the database");
    assertFalse(Files.exists(project.resolve(".racetriage/trusted-benign.json")));
    return error;
  }

  private static Set<Path> siblings(Path file) throws Exception {
    try (var list = Files.list(file.getParent())) {
      return list.collect(Collectors.toSet());
    }
  }

  private static void execute(Path file, String... sql) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      for (String statement : sql) {
        s.execute(statement);
      }
    }
    assertTrue(SchemaIdentity.APPLICATION_ID != 1234);
  }
}
