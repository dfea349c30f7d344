package dev.racetriage.store;

import dev.racetriage.store.engine.StoreLocation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.detail.RaceDetail;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.AccessType;
import dev.racetriage.store.races.Lifecycle;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.races.RaceQuery;
import dev.racetriage.store.races.RaceSummary;
import dev.racetriage.store.races.TriageState;
import dev.racetriage.store.races.VerdictCounts;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.schema.Migrations;
import dev.racetriage.store.schema.Migrator;
import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/** A race is fixed when a run no longer sees it, regressed when one sees it again; fixed races leave every open view. */
@OnEveryEngine
class RaceLifecycleTest {
  @Parameter TestEngine engine;

  @TempDir Path project;

  private static Race race(String key, String test) {
    return new Race(FieldKey.parse(key), Set.of(RaceKind.WR),
        List.of(new AccessSite(AccessType.WRITE, "t1", "A.java", 3, List.of()),
            new AccessSite(AccessType.READ, "t2", "A.java", 9, List.of())), Set.of(test));
  }

  @Test
  void aFixedRaceLeavesCountsListsAndEditorViewsAndComesBackAsARegression() {
    try (TriageStore store = TriageStore.open(engine.location(project, "triage.db"), project)) {
      Run first = store.runs().start("triage", "c0ffee1", null);
      store.races().upsert(race("p.A.result", "p.ATest#t"), first.id());
      store.races().upsert(race("p.A.done", "p.ATest#t"), first.id());
      store.verdicts().set(FieldKey.parse("p.A.result"), Verdict.DESTRUCTIVE, Evidence.of("fails"), first.id());
      store.verdicts().set(FieldKey.parse("p.A.done"), Verdict.BENIGN, Evidence.of("passes"), first.id());
      assertEquals(Map.of(FieldKey.parse("p.A.done"), List.of("p.ATest#t"), FieldKey.parse("p.A.result"),
          List.of("p.ATest#t")), store.races().unfixedWithTests());

      Run second = store.runs().start("triage", "beef002", null);
      assertTrue(store.races().markFixed(FieldKey.parse("p.A.result"), second.id(), "not detected; 1 test ran"));
      assertFalse(store.races().markFixed(FieldKey.parse("p.A.result"), second.id(), "again"), "already fixed");

      RaceSummary fixed = store.races().find(FieldKey.parse("p.A.result")).orElseThrow();
      assertEquals(Lifecycle.FIXED, fixed.lifecycle());
      assertEquals(TriageState.FIXED, fixed.triageState());
      VerdictCounts counts = store.races().counts();
      assertEquals(0, counts.of(Verdict.DESTRUCTIVE), "a fixed race is not counted open");
      assertEquals(1, counts.total());
      assertEquals(1, counts.fixed());
      assertEquals(List.of("p.A.done"), keys(store.races().list(RaceQuery.all())));
      assertEquals(List.of("p.A.done"), keys(store.races().list(RaceQuery.all().withTriageState(TriageState.OPEN))));
      assertEquals(List.of("p.A.result"), keys(store.races().list(RaceQuery.all().withTriageState(TriageState.FIXED))));
      assertEquals(List.of("p.A.done"), store.races().forClass("p.A").stream().map(r -> r.field().toString()).toList());
      assertEquals(List.of(FieldKey.parse("p.A.done")), List.copyOf(store.races().unfixedWithTests().keySet()));
      RaceDetail detail = store.detail(FieldKey.parse("p.A.result")).orElseThrow();
      assertEquals(1, detail.events().size());
      assertEquals(Lifecycle.FIXED, detail.events().get(0).state());
      assertEquals(second.id(), detail.events().get(0).runId());
      assertEquals("beef002", detail.events().get(0).commitId(), "the commit of the run that fixed it");

      Run third = store.runs().start("triage", "c0ffee3", null);
      RaceSummary back = store.races().upsert(race("p.A.result", "p.ATest#t"), third.id());
      assertEquals(Lifecycle.REGRESSED, back.lifecycle());
      assertEquals(TriageState.REGRESSED, back.triageState());
      assertEquals(1, store.races().counts().of(Verdict.DESTRUCTIVE), "a regression counts as open again");
      assertEquals(1, store.races().counts().regressed());
      assertEquals(List.of("p.A.result"),
          keys(store.races().list(RaceQuery.all().withTriageState(TriageState.REGRESSED))));
      assertTrue(keys(store.races().list(RaceQuery.all().withTriageState(TriageState.OPEN))).contains("p.A.result"),
          "a regression is open");
      List<dev.racetriage.store.races.RaceEvent> events = store.detail(FieldKey.parse("p.A.result")).orElseThrow().events();
      assertEquals(List.of(Lifecycle.FIXED, Lifecycle.REGRESSED), events.stream().map(e -> e.state()).toList());
      assertEquals("c0ffee3", events.get(1).commitId());
      store.races().upsert(race("p.A.result", "p.ATest#t"), third.id());
      assertEquals(2, store.detail(FieldKey.parse("p.A.result")).orElseThrow().events().size(),
          "seeing a regression again is no new event");

      Run outsideGit = store.runs().start("triage", null, null);
      assertTrue(store.races().markFixed(FieldKey.parse("p.A.done"), outsideGit.id(), "gone"));
      assertEquals(null, store.detail(FieldKey.parse("p.A.done")).orElseThrow().events().get(0).commitId(),
          "a run outside git fixes without a commit");
    }
  }

  @Test
  void aVersionFourFileKeepsItsRacesActive() throws Exception {
    StoreLocation file = engine.location(project, "v4.db");
    Migrations bundled = Migrations.bundled();
    try (Database db = Database.open(file, Clock.systemUTC())) {
      new Migrator(new Migrations(bundled.steps().subList(0, 4))).migrate(db);
      db.write("seed version 4", tx -> {
        tx.update("INSERT INTO field(field_key, class_name, member, is_array) VALUES ('p.A.x', 'p.A', 'x', 0)");
        tx.update("INSERT INTO race(field_id, has_wr, has_ww, verdict, first_seen_at, last_seen_at)"
            + " VALUES (1, 1, 0, 'DESTRUCTIVE', 0, 0)");
        return null;
      });
    }
    try (TriageStore store = TriageStore.open(file, project)) {
      RaceSummary race = store.races().find(FieldKey.parse("p.A.x")).orElseThrow();
      assertEquals(Lifecycle.ACTIVE, race.lifecycle());
      assertEquals(1, store.races().counts().of(Verdict.DESTRUCTIVE));
      assertTrue(store.detail(FieldKey.parse("p.A.x")).orElseThrow().events().isEmpty());
    }
  }

  private static List<String> keys(Page<RaceSummary> page) {
    return page.items().stream().map(r -> r.field().toString()).toList();
  }
}
