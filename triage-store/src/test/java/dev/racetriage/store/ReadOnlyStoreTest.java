package dev.racetriage.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.AccessType;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.runs.RunOwner;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.store.schema.Migrations;
import dev.racetriage.store.schema.Migrator;
import dev.racetriage.store.sqlite.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TriageStore#openReadOnly}: reads a current, intact file and never writes a byte to it. */
class ReadOnlyStoreTest {
  static final FieldKey FIELD = FieldKey.parse("com.example.Cache.hash");

  @TempDir Path project;

  @Test
  void opensWithoutWritingEvenWhenAWritableOpenWould() throws Exception {
    Path file = TriageStore.defaultDatabase(project);
    long orphan;
    try (TriageStore store = TriageStore.open(file, project)) {
      store.races().upsert(race(FIELD), null);
      // A run whose process is gone: a writable open marks it ABANDONED.
      orphan = store.runs().start("daemon", null, null, deadOwner()).id();
    }
    byte[] before = Files.readAllBytes(file);
    try (TriageStore store = TriageStore.openReadOnly(file, project)) {
      assertEquals(List.of(), store.abandonedAtOpen());
      assertEquals(RunStatus.RUNNING, store.runs().find(orphan).orElseThrow().status());
      assertEquals(1, store.races().counts().total());
      assertTrue(store.detail(FIELD).isPresent());
    }
    assertArrayEquals(before, Files.readAllBytes(file), "the file is unchanged");
  }

  @Test
  void writesThroughAReadOnlyStoreAreRefused() {
    Path file = TriageStore.defaultDatabase(project);
    TriageStore.open(file, project).close();
    try (TriageStore store = TriageStore.openReadOnly(file, project)) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> store.races().upsert(race(FIELD), null));
      assertTrue(e.getMessage().contains("read-only"), e.getMessage());
    }
  }

  @Test
  void seesWhatAWriterCommitsLater() {
    Path file = TriageStore.defaultDatabase(project);
    try (TriageStore writer = TriageStore.open(file, project);
        TriageStore reader = TriageStore.openReadOnly(file, project)) {
      assertEquals(0, reader.races().counts().total());
      writer.races().upsert(race(FIELD), null);
      assertEquals(1, reader.races().counts().total());
    }
  }

  @Test
  void aMissingFileIsRefusedAndNotCreated() {
    Path file = project.resolve("nothing-here.db");
    StoreException e = assertThrows(StoreException.class, () -> TriageStore.openReadOnly(file, project));
    assertTrue(e.getMessage().contains("racetriage triage"), e.getMessage());
    assertFalse(Files.exists(file));
  }

  @Test
  void anOlderSchemaIsRefusedRatherThanMigrated() throws Exception {
    Path file = project.resolve("v1.db");
    Migrations bundled = Migrations.bundled();
    try (Database db = Database.open(file, Clock.systemUTC())) {
      new Migrator(new Migrations(bundled.steps().subList(0, 1))).migrate(db);
    }
    byte[] before = Files.readAllBytes(file);
    StoreException e = assertThrows(StoreException.class, () -> TriageStore.openReadOnly(file, project));
    assertTrue(e.getMessage().contains("schema version 1"), e.getMessage());
    assertArrayEquals(before, Files.readAllBytes(file));
  }

  @Test
  void damagedDataPagesAreRefusedAsCorrupt() throws Exception {
    Path file = TriageStore.defaultDatabase(project);
    try (TriageStore store = TriageStore.open(file, project)) {
      for (int i = 0; i < 300; i++) {
        store.races().upsert(race(FieldKey.parse("com.example.Gen" + i + ".field")), null);
      }
    }
    // The schema (first pages) stays readable, so only a check of the data pages finds the damage.
    byte[] bytes = Files.readAllBytes(file);
    int pageSize = ((bytes[16] & 0xff) << 8) | (bytes[17] & 0xff);
    for (int i = bytes.length - 2 * pageSize; i < bytes.length; i++) {
      bytes[i] = (byte) 0x5a;
    }
    Files.write(file, bytes);
    UnusableDatabaseException e =
        assertThrows(UnusableDatabaseException.class, () -> TriageStore.openReadOnly(file, project));
    assertEquals(UnusableDatabaseException.Reason.CORRUPT, e.reason());
    assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("corrupt"), e.getMessage());
  }

  private static Race race(FieldKey field) {
    return new Race(field, Set.of(RaceKind.WW),
        List.of(new AccessSite(AccessType.WRITE, "t", "Cache.java", 3, List.of())), Set.of("com.example.CacheTest#t"));
  }

  /** A pid no process has (above Linux's pid_max), on this host. */
  private static RunOwner deadOwner() {
    return new RunOwner(Integer.MAX_VALUE - 1L, RunOwner.localHost(), Instant.EPOCH);
  }
}
