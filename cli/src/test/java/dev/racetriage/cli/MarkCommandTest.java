package dev.racetriage.cli;

import static dev.racetriage.cli.CliRun.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code racetriage mark} against a real triage database in a temporary project. */
class MarkCommandTest {
  @TempDir Path project;



  @Test
  void marksAFieldInANewDatabaseAndTheMirrorFile() throws Exception {
    CliRun result = run("mark", "com.example.Cache.hash", "--trusted-benign",
        "--note", "every thread computes the same hash", "--author", "ada", "--project", project.toString());

    assertEquals(0, result.exitCode(), result.err());
    assertEquals(1, result.out().lines().count(), result.out());
    assertTrue(result.out().startsWith("Marked com.example.Cache.hash trusted-benign (author ada)"), result.out());
    Path db = project.resolve(".racetriage/triage.db");
    assertTrue(result.out().contains(db.toString()), result.out());

    assertEquals(List.of("com.example.Cache.hash|ada|every thread computes the same hash"), rows(db,
        "SELECT f.field_key || '|' || m.author || '|' || m.note FROM trusted_benign_mark m"
            + " JOIN field f ON f.id = m.field_id"));
    assertEquals(List.of("MARK_TRUSTED_BENIGN|ada"), rows(db, "SELECT action || '|' || author FROM audit_log"));

    JsonNode mirror = new ObjectMapper().readTree(project.resolve(".racetriage/trusted-benign.json").toFile());
    assertEquals(1, mirror.get("marks").size());
    JsonNode mark = mirror.get("marks").get(0);
    assertEquals("com.example.Cache.hash", mark.get("field").asText());
    assertEquals("ada", mark.get("author").asText());
    assertEquals("every thread computes the same hash", mark.get("note").asText());
  }

  @Test
  void authorDefaultsToTheUserNameAndDbMayBeElsewhere() throws Exception {
    Path db = project.resolve("elsewhere/my.db");
    CliRun result = run("mark", "com.example.Buf.slots[]", "--trusted-benign", "--note", "stats only",
        "--project", project.toString(), "--db", db.toString());

    assertEquals(0, result.exitCode(), result.err());
    assertEquals(List.of(System.getProperty("user.name")), rows(db, "SELECT author FROM trusted_benign_mark"));
    assertFalse(Files.exists(project.resolve(".racetriage/triage.db")));
    assertTrue(Files.readString(project.resolve(".racetriage/trusted-benign.json")).contains("com.example.Buf.slots[]"));
  }

  @Test
  void aCorruptDatabaseIsOneClearErrorAndStaysUntouched() throws Exception {
    Path db = project.resolve(".racetriage/triage.db");
    Files.createDirectories(db.getParent());
    byte[] noise = new byte[4096];
    new Random(1).nextBytes(noise);
    Files.write(db, noise);

    CliRun result = run("mark", "com.example.Cache.hash", "--trusted-benign", "--note", "n",
        "--project", project.toString());

    assertEquals(1, result.exitCode());
    assertEquals(1, result.err().lines().count(), result.err());
    assertTrue(result.err().startsWith("racetriage: "), result.err());
    assertTrue(result.err().contains(db.toString()), result.err());
    assertTrue(result.err().contains("not an SQLite file"), result.err());
    assertArrayEquals(noise, Files.readAllBytes(db));
    assertFalse(Files.exists(project.resolve(".racetriage/trusted-benign.json")));
    assertEquals("", result.out());
  }

  @Test
  void anInvalidFieldKeyIsAUsageError() {
    CliRun result = run("mark", "hash", "--trusted-benign", "--note", "n", "--project", project.toString());
    assertEquals(2, result.exitCode());
    assertTrue(result.err().contains("'hash' is not a field key"), result.err());
    assertFalse(Files.exists(project.resolve(".racetriage")));
  }

  private static List<String> rows(Path db, String sql) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      while (r.next()) {
        rows.add(r.getString(1));
      }
    }
    return rows;
  }
}
