package dev.racetriage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.marks.AuditAction;
import dev.racetriage.store.marks.MirrorRemovalsHeldException;
import dev.racetriage.store.marks.MirrorSync;
import dev.racetriage.store.marks.RemovalPolicy;
import dev.racetriage.store.marks.TrustedBenignMark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.params.Parameter;

/**
 * A mirror file that lost its marks must never delete the database's marks silently: a file that is not a marks
 * document is refused, and a valid file that drops several marks at once has its removals held until a person
 * accepts them (or keeps the marks).
 */
@OnEveryEngine
class MirrorRemovalsTest {
  @Parameter TestEngine engine;

  private static final FieldKey HASH = FieldKey.parse("com.example.Cache.hash");
  private static final FieldKey SLOTS = FieldKey.parse("com.example.Buf.slots[]");
  private static final FieldKey INNER = FieldKey.parse("com.example.Outer$Inner.count");

  @TempDir Path project;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-02T03:04:05Z"));

  private Path mirror() {
    return project.resolve(".racetriage/trusted-benign.json");
  }

  private TriageStore open() {
    return TriageStore.open(engine.location(project, "mine.db"), project, clock);
  }

  private void markThree() {
    try (TriageStore store = open()) {
      store.marks().markTrustedBenign(HASH, "ada", "idempotent");
      store.marks().markTrustedBenign(SLOTS, "bob", "stats");
      store.marks().markTrustedBenign(INNER, "cy", "approximate");
    }
  }

  private List<FieldKey> marked(TriageStore store) {
    return store.marks().all().stream().map(TrustedBenignMark::field).toList();
  }

  @ParameterizedTest
  @ValueSource(strings = {"null", "{}", "{\"version\":1}", "{\"marks\":[]}", "{\"version\":1,\"marks\":null}",
      "{\"version\":null,\"marks\":[]}", "{\"version\":0,\"marks\":[]}", "{\"version\":1,\"marks\":[null]}",
      "{\"version\":1,\"marks\":{}}", "[]", ""})
  void aFileThatIsNotAMarksDocumentIsRefusedAndRemovesNothing(String content) throws Exception {
    markThree();
    Files.writeString(mirror(), content);

    StoreException error = assertThrows(StoreException.class, this::open);
    assertTrue(error.getMessage().contains(mirror().toString()), error.getMessage());
    assertTrue(error.getMessage().contains("Fix the file"), error.getMessage());
    assertEquals(content, Files.readString(mirror()), "the refused file is left as it was");

    Files.delete(mirror());
    try (TriageStore store = open()) {
      assertEquals(List.of(SLOTS, HASH, INNER), marked(store));
      assertTrue(store.marks().auditLog(HASH).stream().noneMatch(e -> e.action() == AuditAction.REOPEN));
    }
  }

  @Test
  void anEmptyMarksDocumentIsValidForANewDatabase() throws Exception {
    Files.createDirectories(mirror().getParent());
    Files.writeString(mirror(), "{\"version\":1,\"marks\":[]}");
    try (TriageStore store = open()) {
      assertFalse(store.mirrorSync().changedAnything());
      assertTrue(store.marks().all().isEmpty());
    }
  }

  @Test
  void aFileThatDropsSeveralMarksHasItsRemovalsHeldNotApplied() throws Exception {
    markThree();
    Files.writeString(mirror(), "{\"version\":1,\"marks\":[]}");

    try (TriageStore store = open()) {
      MirrorSync sync = store.mirrorSync();
      assertEquals(List.of(), sync.removed());
      assertEquals(List.of(SLOTS, HASH, INNER), sync.held());
      assertEquals(List.of(SLOTS, HASH, INNER), marked(store));
      assertTrue(store.marks().auditLog(HASH).stream().noneMatch(e -> e.action() == AuditAction.REOPEN));
    }
    // Still held the next time: nothing was decided, and nothing is forgotten.
    try (TriageStore store = open()) {
      assertEquals(List.of(SLOTS, HASH, INNER), store.mirrorSync().held());
      assertEquals(3, store.marks().all().size());
    }
  }

  @Test
  void heldRemovalsRefuseAMarkThatWouldWriteTheMarksBackIntoTheFile() throws Exception {
    markThree();
    Files.writeString(mirror(), "{\"version\":1,\"marks\":[]}");
    FieldKey other = FieldKey.parse("com.example.Other.flag");
    try (TriageStore store = open()) {
      MirrorRemovalsHeldException error = assertThrows(MirrorRemovalsHeldException.class,
          () -> store.marks().markTrustedBenign(other, "ada", "new"));
      assertEquals(List.of(SLOTS, HASH, INNER), error.held());
      assertTrue(error.getMessage().contains(HASH.toString()), error.getMessage());
      assertTrue(error.getMessage().contains("racetriage marks sync --accept-removals"), error.getMessage());
      assertTrue(error.getMessage().contains("--keep-marks"), error.getMessage());
      assertTrue(store.marks().find(other).isEmpty());
      assertThrows(MirrorRemovalsHeldException.class, () -> store.marks().reopen(HASH, "ada", "not benign"));
      assertEquals(3, store.marks().all().size());
    }
    assertEquals("{\"version\":1,\"marks\":[]}", Files.readString(mirror()).strip().replace(" ", ""),
        "neither the refused mark nor the refused reopen rewrote the file");
  }

  @Test
  void acceptingTheRemovalsRemovesAndListsEveryOne() throws Exception {
    markThree();
    Files.writeString(mirror(), "{\"version\":1,\"marks\":[]}");
    try (TriageStore store = open()) {
      MirrorSync sync = store.marks().syncFromMirror(RemovalPolicy.ACCEPT);
      assertEquals(List.of(SLOTS, HASH, INNER), sync.removed());
      assertEquals(List.of(), sync.held());
      assertTrue(store.marks().all().isEmpty());
      assertEquals(AuditAction.REOPEN, store.marks().auditLog(HASH).get(1).action());
      store.marks().markTrustedBenign(HASH, "ada", "again");
    }
    try (TriageStore store = open()) {
      assertFalse(store.mirrorSync().changedAnything());
      assertEquals(List.of(HASH), marked(store));
    }
  }

  @Test
  void keepingTheMarksWritesThemBackIntoTheFile() throws Exception {
    markThree();
    Files.writeString(mirror(), "{\"version\":1,\"marks\":[]}");
    try (TriageStore store = open()) {
      assertEquals(List.of(SLOTS, HASH, INNER), store.marks().keepMarks());
      assertEquals(3, store.marks().all().size());
    }
    String file = Files.readString(mirror());
    assertTrue(file.contains(HASH.toString()) && file.contains(SLOTS.toString()) && file.contains(INNER.toString()),
        file);
    try (TriageStore store = open()) {
      assertFalse(store.mirrorSync().changedAnything());
      assertEquals(List.of(), store.mirrorSync().held());
    }
  }

  @Test
  void oneRemovalIsAppliedAndListedWhileNewMarksInTheSameFileAreImported() throws Exception {
    markThree();
    // A teammate reopened HASH and marked another field; their committed file arrives with a pull.
    FieldKey other = FieldKey.parse("com.example.Other.flag");
    try (TriageStore teammate = TriageStore.open(engine.location(project, "theirs.db"), project, clock)) {
      teammate.marks().reopen(HASH, "dan", "saw a failure");
      teammate.marks().markTrustedBenign(other, "dan", "a late stop is fine");
    }
    try (TriageStore store = open()) {
      assertEquals(List.of(HASH), store.mirrorSync().removed());
      assertEquals(List.of(), store.mirrorSync().held());
      assertEquals(List.of(other), store.mirrorSync().imported().stream().map(TrustedBenignMark::field).toList());
      assertEquals(List.of(SLOTS, other, INNER), marked(store));
    }
  }
}
