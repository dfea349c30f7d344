package dev.racetriage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.DatabaseNotWritableException.Reason;
import dev.racetriage.store.schema.Migrations;
import dev.racetriage.store.schema.Migrator;
import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.sqlite.WriteAccess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConfig;

/**
 * Opening proves the file can be written, so a triage learns it cannot store anything before it runs a single trial,
 * and the message names the real cause (never "cannot migrate the schema" for a file that needs no migration).
 */
class WritableDatabaseTest {
  @TempDir Path project;

  @Test
  void aReadOnlyFileIsReportedAsReadOnlyNotAsAMigration() throws Exception {
    Path file = created(project.resolve("triage.db"));
    try (ReadOnlyPaths readOnly = new ReadOnlyPaths()) {
      readOnly.makeReadOnly(file);
      DatabaseNotWritableException error = refused(file, Reason.READ_ONLY);
      assertEquals("The triage database " + file + " is read-only (the file is not writable by this user). Make it "
          + "writable, or give --db a file you can write.", error.getMessage());
    }
  }

  @Test
  void anOlderReadOnlyFileIsStillReadOnlyNotAFailedMigration() throws Exception {
    Path file = project.resolve("v2.db");
    try (Database db = Database.open(file, Clock.systemUTC())) {
      new Migrator(new Migrations(Migrations.bundled().steps().subList(0, 2))).migrate(db);
    }
    try (ReadOnlyPaths readOnly = new ReadOnlyPaths()) {
      readOnly.makeReadOnly(file);
      refused(file, Reason.READ_ONLY);
    }
  }

  @Test
  void aReadOnlyDirectoryIsReportedWithTheFilesSqliteMustCreate() throws Exception {
    Path directory = Files.createDirectories(project.resolve("shared"));
    Path file = created(directory.resolve("triage.db"));
    try (ReadOnlyPaths readOnly = new ReadOnlyPaths()) {
      readOnly.makeReadOnly(directory);
      DatabaseNotWritableException error = refused(file, Reason.READ_ONLY);
      assertTrue(error.getMessage().contains("its directory " + directory + " is not writable, and SQLite must "
          + "create triage.db-wal and triage.db-shm there"), error.getMessage());
    }
  }

  @Test
  void aNewDatabaseInAReadOnlyDirectoryIsReportedAsReadOnly() throws Exception {
    Path directory = Files.createDirectories(project.resolve("empty"));
    try (ReadOnlyPaths readOnly = new ReadOnlyPaths()) {
      readOnly.makeReadOnly(directory);
      DatabaseNotWritableException error = refused(directory.resolve("triage.db"), Reason.READ_ONLY);
      assertTrue(error.getMessage().contains("its directory " + directory + " is not writable"), error.getMessage());
    }
  }

  /** Runs everywhere, root or not: SQLite's own read-only error, raised for real, becomes READ_ONLY. */
  @Test
  void sqlitesReadOnlyErrorBecomesReadOnly() throws Exception {
    Path file = created(project.resolve("triage.db"));
    SQLiteConfig config = new SQLiteConfig();
    config.setReadOnly(true);
    SQLException readOnlyError;
    try (Connection connection = config.createConnection("jdbc:sqlite:" + file);
        Statement statement = connection.createStatement()) {
      readOnlyError = assertThrows(SQLException.class, () -> statement.execute("PRAGMA user_version = 9"));
    }
    DatabaseNotWritableException error = WriteAccess.readOnly(file, readOnlyError).orElseThrow();
    assertEquals(Reason.READ_ONLY, error.reason());
    assertTrue(error.getMessage().startsWith("The triage database " + file + " is read-only (SQLite: "),
        error.getMessage());
  }

  @Test
  void aFileLockedByAnotherProcessIsReportedAsLocked() throws Exception {
    Path file = created(project.resolve("triage.db"));
    try (ChildJvm holder = ChildJvm.start(ConcurrencyWorker.class, project.resolve("holder.err"),
        "holder", file.toString(), project.toString())) {
      holder.awaitLine(ConcurrencyWorker.HOLDING);
      DatabaseNotWritableException error = assertThrows(DatabaseNotWritableException.class,
          () -> TriageStore.open(file, project, Clock.systemUTC(), Duration.ofSeconds(1)));
      assertEquals(Reason.LOCKED, error.reason());
      assertEquals("The triage database " + file + " is locked by another process (a triage, the daemon, or "
          + "another program holding its write lock) for longer than 1 s, so racetriage could not write to the "
          + "triage database. Wait for that process to finish, or stop it, and run again.", error.getMessage());
      holder.kill();
    }
    // The OS dropped the dead holder's lock and SQLite rolled its transaction back.
    try (TriageStore store = TriageStore.open(file, project, Clock.systemUTC(), Duration.ofSeconds(1))) {
      assertTrue(store.runs().recent(10).isEmpty());
    }
  }

  private DatabaseNotWritableException refused(Path file, Reason reason) {
    DatabaseNotWritableException error =
        assertThrows(DatabaseNotWritableException.class, () -> TriageStore.open(file, project));
    assertEquals(reason, error.reason());
    assertEquals(file, error.file());
    assertTrue(error.getMessage().contains(file.toString()), error.getMessage());
    assertFalse(error.getMessage().contains("migrat"), error.getMessage());
    return error;
  }

  private Path created(Path file) {
    try (TriageStore store = TriageStore.open(file, project)) {
      assertTrue(store.runs().recent(1).isEmpty());
    }
    return file;
  }
}
