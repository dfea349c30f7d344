package dev.racetriage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.marks.AuditAction;
import dev.racetriage.store.marks.AuditEntry;
import dev.racetriage.store.marks.TrustedBenignMark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/** Trusted-benign marks and their committed mirror file, .racetriage/trusted-benign.json. */
@OnEveryEngine
class MarkMirrorTest {
  @Parameter TestEngine engine;

  private static final FieldKey HASH = FieldKey.parse("com.example.Cache.hash");
  private static final FieldKey SLOTS = FieldKey.parse("com.example.Buf.slots[]");
  private static final FieldKey INNER = FieldKey.parse("com.example.Outer$Inner.count");

  @TempDir Path project;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-02T03:04:05Z"));

  private Path mirror() {
    return project.resolve(".racetriage/trusted-benign.json");
  }

  private TriageStore open(String dbName) {
    return TriageStore.open(engine.location(project, dbName), project, clock);
  }

  @Test
  void markWritesASortedPrettyPrintedFile() throws Exception {
    try (TriageStore store = open("a.db")) {
      store.marks().markTrustedBenign(HASH, "ada", "hash is recomputed identically by every thread");
      clock.advance(Duration.ofMinutes(1));
      store.marks().markTrustedBenign(SLOTS, "bob", "only statistics");
      store.marks().markTrustedBenign(INNER, "cy", "counter \"approximate\" by design");
    }
    String expected = """
        {
          "version" : 1,
          "comment" : "racetriage trusted-benign marks: commit this file. Edit with 'racetriage mark' or the dashboard.",
          "marks" : [
            {
              "field" : "com.example.Buf.slots[]",
              "author" : "bob",
              "note" : "only statistics",
              "markedAt" : "2026-01-02T03:05:05Z"
            },
            {
              "field" : "com.example.Cache.hash",
              "author" : "ada",
              "note" : "hash is recomputed identically by every thread",
              "markedAt" : "2026-01-02T03:04:05Z"
            },
            {
              "field" : "com.example.Outer$Inner.count",
              "author" : "cy",
              "note" : "counter \\"approximate\\" by design",
              "markedAt" : "2026-01-02T03:05:05Z"
            }
          ]
        }
        """;
    assertEquals(expected, Files.readString(mirror()));
  }

  @Test
  void aNewDatabaseImportsTheCommittedMarks() {
    try (TriageStore store = open("first.db")) {
      store.marks().markTrustedBenign(HASH, "ada", "idempotent");
      store.marks().markTrustedBenign(SLOTS, "bob", "stats");
    }
    clock.advance(Duration.ofDays(1));
    try (TriageStore store = open("second.db")) {
      assertEquals(List.of(SLOTS, HASH), store.mirrorSync().imported().stream().map(TrustedBenignMark::field).toList());
      TrustedBenignMark imported = store.marks().find(HASH).orElseThrow();
      assertEquals(new TrustedBenignMark(HASH, "ada", "idempotent", Instant.parse("2026-01-02T03:04:05Z")), imported);
      List<AuditEntry> log = store.marks().auditLog(HASH);
      assertEquals(1, log.size());
      assertEquals(AuditAction.IMPORT_MARK, log.get(0).action());
      assertEquals("ada", log.get(0).author());
    }
    try (TriageStore store = open("second.db")) {
      assertFalse(store.mirrorSync().changedAnything(), "marks already present are not imported twice");
      assertEquals(1, store.marks().auditLog(HASH).size());
    }
  }

  @Test
  void reopenRemovesTheMarkFromTheFile() throws Exception {
    try (TriageStore store = open("a.db")) {
      store.marks().markTrustedBenign(HASH, "ada", "idempotent");
      store.marks().markTrustedBenign(SLOTS, "bob", "stats");
      assertTrue(store.marks().reopen(HASH, "cy", "it is not: see #123"));
      assertFalse(store.marks().reopen(HASH, "cy", "twice"), "reopening an open field changes nothing");
      assertEquals(List.of(SLOTS), store.marks().all().stream().map(TrustedBenignMark::field).toList());
      List<AuditEntry> log = store.marks().auditLog(HASH);
      assertEquals(List.of(AuditAction.MARK_TRUSTED_BENIGN, AuditAction.REOPEN),
          log.stream().map(AuditEntry::action).toList());
      assertEquals("cy", log.get(1).author());
      assertEquals("it is not: see #123", log.get(1).note());
    }
    String file = Files.readString(mirror());
    assertFalse(file.contains(HASH.toString()), file);
    assertTrue(file.contains(SLOTS.toString()), file);
    try (TriageStore fresh = open("b.db")) {
      assertEquals(List.of(SLOTS), fresh.marks().all().stream().map(TrustedBenignMark::field).toList());
    }
  }

  @Test
  void aMarkATeammateReopenedIsRemovedInsteadOfWrittenBack() throws Exception {
    try (TriageStore store = open("mine.db")) {
      store.marks().markTrustedBenign(HASH, "ada", "idempotent");
      store.marks().markTrustedBenign(SLOTS, "bob", "stats");
    }
    // The teammate reopened HASH and edited SLOTS's note in their database; git pull brings their file here.
    try (TriageStore teammate = open("theirs.db")) {
      teammate.marks().reopen(HASH, "cy", "saw a failure");
      teammate.marks().markTrustedBenign(SLOTS, "cy", "stats, reviewed");
    }
    clock.advance(Duration.ofMinutes(1));
    try (TriageStore store = open("mine.db")) {
      assertEquals(List.of(HASH), store.mirrorSync().removed());
      assertEquals(List.of(SLOTS), store.mirrorSync().imported().stream().map(TrustedBenignMark::field).toList());
      assertTrue(store.marks().find(HASH).isEmpty());
      assertEquals("stats, reviewed", store.marks().find(SLOTS).orElseThrow().note());
      AuditEntry reopen = store.marks().auditLog(HASH).get(1);
      assertEquals(AuditAction.REOPEN, reopen.action());
      assertTrue(reopen.note().contains("trusted-benign.json"), reopen.note());

      store.marks().markTrustedBenign(INNER, "ada", "new");
    }
    String file = Files.readString(mirror());
    assertFalse(file.contains(HASH.toString()), "the reopened mark is not resurrected:\n" + file);
    assertTrue(file.contains(INNER.toString()) && file.contains("stats, reviewed"), file);
  }

  @Test
  void markingWhileTheFileChangedUnderneathMergesInsteadOfOverwriting() throws Exception {
    try (TriageStore editor = open("mine.db")) {
      editor.marks().markTrustedBenign(HASH, "ada", "idempotent");
      // While the editor stays open, a pull brings a teammate's file: SLOTS marked, HASH reopened.
      try (TriageStore teammate = open("theirs.db")) {
        teammate.marks().markTrustedBenign(SLOTS, "bob", "stats");
        teammate.marks().reopen(HASH, "bob", "not benign");
      }
      editor.marks().markTrustedBenign(INNER, "ada", "approximate");
      assertEquals(List.of(SLOTS, INNER), editor.marks().all().stream().map(TrustedBenignMark::field).toList());
    }
    String file = Files.readString(mirror());
    assertTrue(file.contains(SLOTS.toString()) && file.contains(INNER.toString()), file);
    assertFalse(file.contains(HASH.toString()), file);
  }

  @Test
  void aDeletedMirrorFileRemovesNothingAndIsRewrittenByTheNextMark() throws Exception {
    try (TriageStore store = open("a.db")) {
      store.marks().markTrustedBenign(HASH, "ada", "idempotent");
    }
    Files.delete(mirror());
    try (TriageStore store = open("a.db")) {
      assertFalse(store.mirrorSync().changedAnything());
      assertTrue(store.marks().find(HASH).isPresent());
      store.marks().markTrustedBenign(SLOTS, "bob", "stats");
    }
    String file = Files.readString(mirror());
    assertTrue(file.contains(HASH.toString()) && file.contains(SLOTS.toString()), file);
  }

  @Test
  void aFieldWithoutARaceMayBeMarkedAndCommentedOn() {
    try (TriageStore store = open("a.db")) {
      store.marks().markTrustedBenign(HASH, "ada", "marked ahead of detection");
      AuditEntry comment = store.marks().comment(HASH, "bob", "agreed");
      assertEquals(AuditAction.COMMENT, comment.action());
      assertTrue(store.races().find(HASH).isEmpty());
      assertEquals(2, store.marks().auditLog(HASH).size());
      assertEquals(comment, store.marks().recentActivity(1).get(0));
    }
  }

  @Test
  void remarkingReplacesAuthorAndNote() {
    try (TriageStore store = open("a.db")) {
      store.marks().markTrustedBenign(HASH, "ada", "first");
      clock.advance(Duration.ofHours(1));
      store.marks().markTrustedBenign(HASH, "bob", "second");
      TrustedBenignMark mark = store.marks().find(HASH).orElseThrow();
      assertEquals("bob", mark.author());
      assertEquals("second", mark.note());
      assertEquals(1, store.marks().all().size());
    }
  }

  @Test
  void anInvalidMirrorFileIsReportedWithItsName() throws Exception {
    Files.createDirectories(mirror().getParent());
    Files.writeString(mirror(), "{ \"marks\": [ {\"field\": \"nope\" ");
    StoreException error = assertThrows(StoreException.class, () -> open("a.db"));
    assertTrue(error.getMessage().contains(mirror().toString()), error.getMessage());
    assertTrue(error.getMessage().contains("not valid JSON"), error.getMessage());

    Files.writeString(mirror(), "{\"version\":1,\"marks\":[{\"field\":\"nodot\",\"author\":\"a\",\"note\":\"n\","
        + "\"markedAt\":\"2026-01-01T00:00:00Z\"}]}");
    error = assertThrows(StoreException.class, () -> open("b.db"));
    assertTrue(error.getMessage().contains("nodot"), error.getMessage());
  }

  @Test
  void aNoteOrCommentLongerThanTheLimitIsRefusedAndNothingIsWritten() {
    String longest = "n".repeat(TrustedBenignMark.MAX_NOTE);
    String tooLong = longest + "n";
    try (TriageStore store = open("a.db")) {
      IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
          () -> store.marks().markTrustedBenign(HASH, "ada", "x".repeat(100_000)));
      assertTrue(error.getMessage().contains("100000 characters") && error.getMessage().contains("4000"),
          error.getMessage());
      assertThrows(IllegalArgumentException.class, () -> store.marks().comment(HASH, "ada", tooLong));
      assertTrue(store.marks().all().isEmpty());
      assertTrue(store.marks().auditLog(HASH).isEmpty());
      assertFalse(Files.exists(mirror()));

      store.marks().markTrustedBenign(HASH, "ada", longest);
      assertThrows(IllegalArgumentException.class, () -> store.marks().reopen(HASH, "ada", tooLong));
      assertEquals(longest, store.marks().find(HASH).orElseThrow().note());
    }
  }

  @Test
  void emptyAuthorOrNoteIsRefused() {
    try (TriageStore store = open("a.db")) {
      assertThrows(IllegalArgumentException.class, () -> store.marks().markTrustedBenign(HASH, "ada", " "));
      assertThrows(IllegalArgumentException.class, () -> store.marks().markTrustedBenign(HASH, "", "why"));
      assertTrue(store.marks().all().isEmpty());
      assertFalse(Files.exists(mirror()));
    }
  }
}
