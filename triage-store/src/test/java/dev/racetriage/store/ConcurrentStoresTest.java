package dev.racetriage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.AccessType;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.races.RaceQuery;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.store.trials.Trial;
import dev.racetriage.store.trials.TrialOutcome;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * Several stores of one process on one database, each with its connections (as several workers' threads or a daemon
 * beside the dashboard have): runs, races, trials, verdicts, heartbeats and marks written at once. Every unit of
 * work must succeed — on PostgreSQL through retried serialization failures — and nothing may be lost.
 */
@OnEveryEngine
class ConcurrentStoresTest {
  @Parameter TestEngine engine;

  @TempDir Path project;

  private static final int WRITERS = 4;
  private static final int RACES = 15;

  @Test
  void fourStoresWritingTheSameRacesAtOnceLoseNothing() throws Exception {
    var location = engine.location(project, "shared.db");
    TriageStore.open(location, project).close(); // the schema first: creating it concurrently is another test's
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        done.add(pool.submit(() -> {
          try (TriageStore store = TriageStore.open(location, project)) {
            long run = store.runs().start("writer-" + writer, null, null).id();
            for (int i = 0; i < RACES; i++) {
              FieldKey field = FieldKey.parse("com.example.Shared.f" + i);
              store.races().upsert(new Race(field, Set.of(writer % 2 == 0 ? RaceKind.WR : RaceKind.WW),
                  List.of(new AccessSite(AccessType.WRITE, "t" + writer, "Shared.java", i, List.of())),
                  Set.of("SharedTest#t" + writer)), run);
              store.trials().add(new Trial(field, "SharedTest#t" + writer, "oldest", i, TrialOutcome.PASS,
                  Duration.ofMillis(5), 4, 1, null), run, "key-" + writer + "-" + i);
              store.verdicts().set(field, Verdict.BENIGN, Evidence.of("writer " + writer), run);
              store.runs().heartbeat(run);
            }
            store.marks().markTrustedBenign(FieldKey.parse("com.example.Mine.f" + writer), "w" + writer, "mine");
            store.runs().finish(run, RunStatus.SUCCEEDED, "done", null);
          }
          return null;
        }));
      }
      for (Future<?> each : done) {
        each.get(); // rethrows a writer's failure
      }
    } finally {
      pool.shutdownNow();
    }
    try (TriageStore store = TriageStore.open(location, project)) {
      var races = store.races().list(RaceQuery.all().page(0, RaceQuery.MAX_LIMIT));
      assertEquals(RACES, races.total());
      assertTrue(races.items().stream().allMatch(r -> r.trials() == WRITERS), "every writer's trial is stored");
      assertTrue(races.items().stream().allMatch(r -> r.kinds().equals(Set.of(RaceKind.WR, RaceKind.WW))),
          "the kinds of every writer are merged");
      assertEquals(WRITERS, store.verdicts().history(FieldKey.parse("com.example.Shared.f0")).size());
      assertEquals(WRITERS, store.marks().all().size());
      assertEquals(WRITERS, store.marks().mirror().read().size(), "the mirror file holds every writer's mark");
      assertTrue(store.runs().recent(10).stream().allMatch(r -> r.status() == RunStatus.SUCCEEDED));
    }
  }
}
