package dev.racetriage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.engine.StoreLocation;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** What {@code --db} accepts: a file path, or a PostgreSQL URL with its user but never a password. */
class StoreLocationTest {
  @Test
  void aPathIsAnSqliteFile() {
    StoreLocation location = StoreLocation.parse("some/dir/triage.db");
    StoreLocation.SqliteFile file = assertInstanceOf(StoreLocation.SqliteFile.class, location);
    assertEquals(Path.of("some/dir/triage.db").toAbsolutePath(), file.file());
    assertEquals(file.file(), location.fileOrNull());
  }

  @Test
  void aPostgresUrlKeepsItsUserAndDatabase() {
    StoreLocation location = StoreLocation.parse("jdbc:postgresql://db.team:5432/races?user=ci&currentSchema=rt");
    StoreLocation.Postgres postgres = assertInstanceOf(StoreLocation.Postgres.class, location);
    assertEquals("ci", postgres.user());
    assertEquals("races", postgres.database());
    assertEquals("jdbc:postgresql://db.team:5432/races?user=ci&currentSchema=rt", location.display());
    assertNull(location.fileOrNull());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "jdbc:postgresql://db:5432/races?user=ci&password=hunter2",
      "jdbc:postgresql://db:5432/races?PASSWORD=hunter2&user=ci",
      "jdbc:postgresql://db:5432/races?user=ci&sslpassword=hunter2",
      "jdbc:postgresql://ci:hunter2@db:5432/races"})
  void aPasswordOnTheCommandLineIsRefusedWithoutBeingRepeated(String url) {
    StoreException e = assertThrows(StoreException.class, () -> StoreLocation.parse(url));
    assertTrue(e.getMessage().contains("carries a password"), e.getMessage());
    assertTrue(e.getMessage().contains("RACETRIAGE_DB_PASSWORD") && e.getMessage().contains("~/.pgpass"),
        e.getMessage());
    assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
  }

  @Test
  void aUrlWithoutADatabaseOrOfAnotherEngineIsRefused() {
    StoreException noDatabase = assertThrows(StoreException.class,
        () -> StoreLocation.parse("jdbc:postgresql://db:5432/?user=ci"));
    assertTrue(noDatabase.getMessage().contains("names no database"), noDatabase.getMessage());
    StoreException mysql = assertThrows(StoreException.class, () -> StoreLocation.parse("jdbc:mysql://db/races"));
    assertTrue(mysql.getMessage().contains("SQLite file or in PostgreSQL"), mysql.getMessage());
    StoreException noSlashes = assertThrows(StoreException.class,
        () -> StoreLocation.parse("jdbc:postgresql:races"));
    assertTrue(noSlashes.getMessage().contains("jdbc:postgresql://host:port/database?user=name"),
        noSlashes.getMessage());
  }
}
