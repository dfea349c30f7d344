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
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.marks.TrustedBenignMark;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

  private static final String HASH = "com.example.Cache.hash";
  private static final String SLOTS = "com.example.Buf.slots[]";
  private static final String INNER = "com.example.Outer$Inner.count";

  private Path db() {
    return project.resolve(".racetriage/triage.db");
  }

  private Path mirror() {
    return project.resolve(".racetriage/trusted-benign.json");
  }

  private CliRun mark(String field, String note) {
    return run("mark", field, "--trusted-benign", "--note", note, "--author", "ada", "--project", project.toString());
  }

  private void markThree() {
    for (String field : List.of(HASH, SLOTS, INNER)) {
      assertEquals(0, mark(field, "harmless").exitCode());
    }
  }

  private List<String> markedFields() throws Exception {
    return rows(db(), "SELECT f.field_key FROM trusted_benign_mark m JOIN field f ON f.id = m.field_id"
        + " ORDER BY f.field_key");
  }

  @ParameterizedTest
  @ValueSource(strings = {"null", "{}", "{\"version\":1}", "{\"marks\":[]}", "{\"version\":1,\"marks\":null}"})
  void aMarksFileWithoutMarksIsRefusedAndDeletesNoMark(String content) throws Exception {
    markThree();
    Files.writeString(mirror(), content);

    CliRun result = mark("com.example.Other.flag", "new");

    assertEquals(1, result.exitCode(), result.err());
    assertEquals(1, result.err().lines().count(), result.err());
    assertTrue(result.err().startsWith("racetriage: cannot use the trusted-benign marks in " + mirror()), result.err());
    assertEquals(List.of(SLOTS, HASH, INNER), markedFields());
    assertEquals(List.of(), rows(db(), "SELECT field_id FROM audit_log WHERE action = 'REOPEN'"));
    assertEquals(content, Files.readString(mirror()));
  }

  @Test
  void aMarksFileThatDroppedSeveralMarksHoldsThemUntilMarksSyncDecides() throws Exception {
    markThree();
    Files.writeString(mirror(), "{\"version\":1,\"marks\":[]}");

    CliRun refused = mark("com.example.Other.flag", "new");
    assertEquals(1, refused.exitCode(), refused.err());
    assertEquals(1, refused.err().lines().count(), refused.err());
    assertTrue(refused.err().contains("no longer holds 3 trusted-benign marks"), refused.err());
    assertTrue(refused.err().contains("racetriage marks sync --accept-removals"), refused.err());
    assertEquals(List.of(SLOTS, HASH, INNER), markedFields());

    CliRun held = run("marks", "sync", "--project", project.toString());
    assertEquals(1, held.exitCode(), held.err());
    assertEquals(List.of("Held: " + SLOTS, "Held: " + HASH, "Held: " + INNER),
        held.out().lines().map(line -> line.substring(0, line.indexOf(" is no longer"))).toList());
    assertEquals(List.of(SLOTS, HASH, INNER), markedFields());

    CliRun accepted = run("marks", "sync", "--accept-removals", "--project", project.toString());
    assertEquals(0, accepted.exitCode(), accepted.err());
    assertEquals(List.of(SLOTS, HASH, INNER), accepted.out().lines()
        .map(line -> line.substring("Removed the mark of ".length(), line.indexOf(": it is no longer"))).toList());
    assertEquals(List.of(), markedFields());
    assertEquals(0, mark("com.example.Other.flag", "new").exitCode());
  }

  @Test
  void keepMarksWritesTheDroppedMarksBackIntoTheFile() throws Exception {
    markThree();
    Files.writeString(mirror(), "{\"version\":1,\"marks\":[]}");

    CliRun kept = run("marks", "sync", "--keep-marks", "--project", project.toString());

    assertEquals(0, kept.exitCode(), kept.err());
    assertEquals(3, kept.out().lines().filter(line -> line.startsWith("Kept the mark of ")).count(), kept.out());
    JsonNode file = new ObjectMapper().readTree(mirror().toFile());
    assertEquals(3, file.get("marks").size());
    assertEquals(List.of(SLOTS, HASH, INNER), markedFields());
    assertEquals(0, run("marks", "sync", "--project", project.toString()).exitCode());
  }

  @Test
  void aTeammatesReopenArrivingInTheFileIsListedByTheNextMark() throws Exception {
    markThree();
    try (TriageStore teammate = TriageStore.open(project.resolve("theirs.db"), project)) {
      teammate.marks().reopen(FieldKey.parse(HASH), "bo", "saw it fail");
    }

    CliRun result = mark("com.example.Other.flag", "new");

    assertEquals(0, result.exitCode(), result.err());
    assertEquals(List.of("Removed the mark of " + HASH + ": it is no longer in " + mirror()
        + " (reopened in a committed change)."), result.out().lines().limit(1).toList());
    assertTrue(result.out().lines().skip(1).findFirst().orElseThrow().startsWith("Marked com.example.Other.flag"));
  }

  @Test
  void eightKilobytesOfGarbageInsideTheDatabaseAreRefusedBeforeAnyWrite() throws Exception {
    Path db = StoreFaults.damagedDatabase(project);
    byte[] before = Files.readAllBytes(db);

    CliRun result = mark(HASH, "harmless");

    assertEquals(1, result.exitCode(), result.err());
    assertEquals(1, result.err().lines().count(), result.err());
    assertTrue(result.err().startsWith("racetriage: " + db + " is corrupt ("), result.err());
    assertTrue(result.err().contains("Move it away and run racetriage again"), result.err());
    assertArrayEquals(before, Files.readAllBytes(db));
    assertFalse(Files.exists(mirror()));
    assertEquals("", result.out());
  }

  @Test
  void aReadOnlyDatabaseIsOneLineNamingTheCause() throws Exception {
    markThree();
    byte[] before = Files.readAllBytes(db());
    byte[] mirrorBefore = Files.readAllBytes(mirror());
    CliRun result;
    try (AutoCloseable readOnly = StoreFaults.readOnly(db())) {
      result = mark("com.example.Other.flag", "new");
    }
    assertEquals(1, result.exitCode(), result.err());
    assertEquals(1, result.err().lines().count(), result.err());
    assertTrue(result.err().startsWith("racetriage: The triage database " + db() + " is read-only ("), result.err());
    assertFalse(result.err().contains("migrate"), result.err());
    assertArrayEquals(before, Files.readAllBytes(db()));
    assertArrayEquals(mirrorBefore, Files.readAllBytes(mirror()));
  }

  @Test
  void aNoteOverTheStoresLimitIsAUsageErrorAndCreatesNothing() {
    CliRun result = mark(HASH, "x".repeat(100_000));
    assertEquals(2, result.exitCode(), result.err());
    assertTrue(result.err().contains("--note is 100000 characters long; at most " + TrustedBenignMark.MAX_NOTE),
        result.err());
    assertFalse(Files.exists(project.resolve(".racetriage")));

    assertEquals(0, mark(HASH, "y".repeat(TrustedBenignMark.MAX_NOTE)).exitCode());
  }

  private static final FieldKey DONE = FieldKey.parse("dev.racetriage.examples.BusyWait.done");
  private static final FieldKey RESULT = FieldKey.parse("dev.racetriage.examples.BusyWait.result");

  /** The busy-wait example as a triage leaves it: {@code done} benign, {@code result} destructive. */
  private void triagedBusyWait() {
    try (TriageStore store = TriageStore.openProject(project)) {
      for (FieldKey field : List.of(DONE, RESULT)) {
        store.races().upsert(new Race(field, Set.of(RaceKind.WR), List.of(), Set.of("demo.BusyWaitTest#sees")), null);
      }
      store.verdicts().set(DONE, Verdict.BENIGN, Evidence.of("stale reads served, no failure"), null);
      store.verdicts().set(RESULT, Verdict.DESTRUCTIVE, Evidence.of("7/20 runs failed under oldest, 0/20 under sc"),
          null);
    }
  }

  @Test
  void aMistypedFieldIsRefusedWithTheClosestKnownFieldsUnlessForced() throws Exception {
    triagedBusyWait();

    CliRun typo = mark("dev.racetriage.examples.BusyWait.don", "a late stop is fine");

    assertEquals(2, typo.exitCode(), typo.err());
    assertEquals(1, typo.err().lines().count(), typo.err());
    assertTrue(typo.err().contains("no race, static candidate or source declaration names "
        + "dev.racetriage.examples.BusyWait.don"), typo.err());
    assertTrue(typo.err().contains("Did you mean " + DONE + "? (also close: " + RESULT + ")"), typo.err());
    assertTrue(typo.err().contains("--force"), typo.err());
    assertEquals(List.of(), markedFields());

    CliRun forced = run("mark", "dev.racetriage.examples.BusyWait.don", "--trusted-benign", "--note", "ahead",
        "--force", "--project", project.toString());
    assertEquals(0, forced.exitCode(), forced.err());
    assertEquals(0, mark(DONE.toString(), "a late stop is fine").exitCode());
  }

  @Test
  void aDestructiveRaceIsRefusedUnlessOverriddenBecauseItWouldTurnCiGreen() throws Exception {
    triagedBusyWait();

    CliRun refused = mark(RESULT.toString(), "looks fine to me");

    assertEquals(2, refused.exitCode(), refused.err());
    assertEquals(1, refused.err().lines().count(), refused.err());
    assertTrue(refused.err().contains(RESULT + " is destructive (7/20 runs failed under oldest, 0/20 under sc)"),
        refused.err());
    assertTrue(refused.err().contains("would turn CI green while that evidence stands"), refused.err());
    assertEquals(List.of(), markedFields());

    assertEquals(2, run("mark", RESULT.toString(), "--trusted-benign", "--note", "x", "--force", "--project",
        project.toString()).exitCode(), "--force is for unknown fields, not for destructive races");

    CliRun overridden = run("mark", RESULT.toString(), "--trusted-benign", "--note", "the sum is recomputed",
        "--override-destructive", "--project", project.toString());
    assertEquals(0, overridden.exitCode(), overridden.err());
    assertTrue(overridden.out().contains("overrides a destructive verdict"), overridden.out());
    assertEquals(List.of(RESULT.toString()), markedFields());
    assertEquals(List.of("MARK_OVERRIDING_DESTRUCTIVE"), rows(TriageStore.defaultDatabase(project),
        "SELECT action FROM audit_log ORDER BY id"), "the audit log says the mark overrode a destructive verdict");
  }

  @Test
  void aFieldTheSourcesDeclareNeedsNoForce() throws Exception {
    triagedBusyWait();
    Path source = project.resolve("src/main/java/demo/Stats.java");
    java.nio.file.Files.createDirectories(source.getParent());
    java.nio.file.Files.writeString(source, "package demo;\nclass Stats {\n  private long hits = 0;\n}\n");
    assertEquals(0, mark("demo.Stats.hits", "statistics only").exitCode());
    assertEquals(2, mark("demo.Stats.hit", "statistics only").exitCode());
  }

  @Test
  void remarkingNeedsReplaceAndSaysWhatItReplaces() {
    assertEquals(0, mark(HASH, "every thread computes the same hash").exitCode());

    CliRun refused = run("mark", HASH, "--trusted-benign", "--note", "String.hashCode idiom", "--author", "bo",
        "--project", project.toString());
    assertEquals(2, refused.exitCode(), refused.err());
    assertTrue(refused.err().contains("already marked trusted-benign by ada") && refused.err().contains("--replace")
        && refused.err().contains("\"every thread computes the same hash\""), refused.err());
    assertEquals(0, mark(HASH, "every thread computes the same hash").exitCode(), "the same note again is fine");

    CliRun again = run("mark", HASH, "--trusted-benign", "--note", "String.hashCode idiom", "--author", "bo",
        "--replace", "--project", project.toString());

    assertEquals(0, again.exitCode(), again.err());
    List<String> lines = again.out().lines().toList();
    assertEquals(2, lines.size(), again.out());
    assertTrue(lines.get(1).startsWith("This replaces the earlier mark by ada ("), lines.get(1));
    assertTrue(lines.get(1).endsWith("\"every thread computes the same hash\" (kept in the audit log)."),
        lines.get(1));
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
