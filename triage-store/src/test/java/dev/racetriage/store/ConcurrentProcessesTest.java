package dev.racetriage.store;

import dev.racetriage.store.engine.StoreLocation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.queue.WorkState;
import dev.racetriage.store.races.RaceQuery;
import dev.racetriage.store.verdicts.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * Several JVMs on one real database file, as in use: the daemon writes while the LSP server and the dashboard read.
 * No process may see "database is locked", a half-written unit of work, or lose an item of the work queue.
 */
@OnEveryEngine
class ConcurrentProcessesTest {
  @Parameter TestEngine engine;

  private static final int RACES = 150;
  private static final long PROCESS_TIMEOUT_SECONDS = 180;

  @TempDir Path project;

  @Test
  void oneWriterAndTwoReadersInSeparateProcesses() throws Exception {
    // All three start together on a file that does not exist yet: creating the schema is contended too.
    StoreLocation db = engine.location(project, ".racetriage/triage.db");
    List<Child> children = List.of(
        start("writer", db, String.valueOf(RACES)),
        start("reader", db, String.valueOf(RACES)),
        start("reader", db, String.valueOf(RACES)));
    for (Child child : children) {
      child.awaitSuccess();
    }
    assertTrue(children.get(1).stdout().startsWith("snapshots "), children.get(1).stdout());
    try (TriageStore store = TriageStore.open(db, project)) {
      var all = store.races().list(RaceQuery.all().page(0, RaceQuery.MAX_LIMIT));
      assertEquals(RACES, all.total());
      assertEquals(RACES, store.races().counts().of(Verdict.BENIGN));
      assertTrue(all.items().stream().allMatch(r -> r.trials() == ConcurrencyWorker.TRIALS_PER_RACE));
      assertEquals(1, store.verdicts().history(ConcurrencyWorker.field(RACES - 1)).size());
    }
  }

  /**
   * Three processes record the same races at once (each race, its trials and its verdict in one unit of work) while a
   * fourth marks fields: on PostgreSQL every one of them meets serialization failures, which must be retried, never
   * reported; nothing written may be lost.
   */
  @Test
  void threeWritersOnTheSameRacesAndAMarkerAtOnceLoseNothing() throws Exception {
    StoreLocation db = engine.location(project, "contended.db");
    int races = 40;
    List<Child> children = List.of(
        start("writer", db, String.valueOf(races)),
        start("writer", db, String.valueOf(races)),
        start("writer", db, String.valueOf(races)),
        start("marker", db, "Carol"));
    for (Child child : children) {
      child.awaitSuccess();
    }
    try (TriageStore store = TriageStore.open(db, project)) {
      var all = store.races().list(RaceQuery.all().page(0, RaceQuery.MAX_LIMIT));
      assertEquals(races, all.total());
      assertTrue(all.items().stream().allMatch(r -> r.trials() == 3 * ConcurrencyWorker.TRIALS_PER_RACE),
          "every writer's trials are stored");
      for (int i = 0; i < races; i++) {
        assertEquals(3, store.verdicts().history(ConcurrencyWorker.field(i)).size(), "one verdict row per writer");
      }
      assertEquals(3, store.runs().recent(10).stream().filter(r -> r.kind().equals("writer")).count());
      assertEquals(ConcurrencyWorker.MARKS_PER_MARKER / 2, store.marks().all().size());
    }
  }

  @Test
  void twoProcessesClaimingFromOneQueueNeverTakeTheSameItem() throws Exception {
    StoreLocation db = engine.location(project, "queue.db");
    int items = 120;
    try (TriageStore store = TriageStore.open(db, project)) {
      for (int i = 0; i < items; i++) {
        store.queue().enqueue(ConcurrencyWorker.field(i), "test", i % 3);
      }
    }
    Child first = start("claimer", db, "claimer-1");
    Child second = start("claimer", db, "claimer-2");
    first.awaitSuccess();
    second.awaitSuccess();
    Set<Long> byFirst = claimed(first);
    Set<Long> bySecond = claimed(second);
    Set<Long> overlap = new HashSet<>(byFirst);
    overlap.retainAll(bySecond);
    assertEquals(Set.of(), overlap, "items claimed by both processes");
    assertEquals(items, byFirst.size() + bySecond.size());
    try (TriageStore store = TriageStore.open(db, project)) {
      assertEquals((long) items, store.queue().counts().get(WorkState.DONE));
      assertEquals(0L, store.queue().counts().get(WorkState.PENDING));
    }
  }

  @Test
  void twoProcessesMarkingAtOnceKeepTheMirrorFileEqualToTheDatabase() throws Exception {
    StoreLocation db = engine.location(project, ".racetriage/triage.db");
    Child first = start("marker", db, "Alice");
    Child second = start("marker", db, "Bob");
    first.awaitSuccess();
    second.awaitSuccess();
    Set<String> expected = new HashSet<>();
    for (String who : List.of("Alice", "Bob")) {
      for (int i = 1; i < ConcurrencyWorker.MARKS_PER_MARKER; i += 2) {
        expected.add(ConcurrencyWorker.markedField(who, i).toString());
      }
    }
    try (TriageStore store = TriageStore.open(db, project)) {
      assertEquals(expected, store.marks().all().stream().map(m -> m.field().toString()).collect(Collectors.toSet()));
      Set<String> inFile = store.marks().mirror().read().stream()
          .map(m -> m.field().toString()).collect(Collectors.toSet());
      assertEquals(expected, inFile);
      assertTrue(!store.mirrorSync().changedAnything(), "the file already matched the database");
    }
  }

  private static Set<Long> claimed(Child child) throws IOException {
    String line = child.stdout().strip();
    assertTrue(line.startsWith("claimed"), line);
    return Arrays.stream(line.substring("claimed".length()).trim().split(" "))
        .filter(s -> !s.isEmpty())
        .map(Long::valueOf)
        .collect(Collectors.toSet());
  }

  private Child start(String role, StoreLocation db, String arg) throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>(List.of(
        java.toString(), "-XX:TieredStopAtLevel=1", "-Xshare:auto",
        "-cp", System.getProperty("java.class.path"),
        ConcurrencyWorker.class.getName(), role, db.display(), project.toString(), arg));
    String name = role + "-" + System.nanoTime();
    Path out = project.resolve(name + ".out");
    Path err = project.resolve(name + ".err");
    Process process = new ProcessBuilder(command)
        .redirectOutput(out.toFile())
        .redirectError(err.toFile())
        .start();
    return new Child(role, process, out, err);
  }

  private record Child(String role, Process process, Path out, Path err) {
    void awaitSuccess() throws Exception {
      if (!process.waitFor(PROCESS_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(role + " did not finish in " + PROCESS_TIMEOUT_SECONDS + " s; stderr:\n"
            + Files.readString(err));
      }
      assertEquals(0, process.exitValue(), role + " failed; stderr:\n" + Files.readString(err));
    }

    String stdout() throws IOException {
      return Files.readString(out);
    }
  }
}
