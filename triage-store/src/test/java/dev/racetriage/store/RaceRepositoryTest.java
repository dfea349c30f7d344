package dev.racetriage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.candidates.StaticCandidate;
import dev.racetriage.store.detail.RaceDetail;
import dev.racetriage.store.marks.AuditAction;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.AccessType;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.races.RaceQuery;
import dev.racetriage.store.races.RaceSort;
import dev.racetriage.store.races.RaceSummary;
import dev.racetriage.store.races.TriageState;
import dev.racetriage.store.races.VerdictCounts;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.trials.Trial;
import dev.racetriage.store.trials.TrialOutcome;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

@OnEveryEngine
class RaceRepositoryTest {
  @Parameter TestEngine engine;

  @TempDir Path project;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
  private TriageStore store;

  @BeforeEach
  void open() {
    store = TriageStore.open(engine.location(project, "triage.db"), project, clock);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static AccessSite write(String thread, int line) {
    return new AccessSite(AccessType.WRITE, thread, "Cache.java", line, List.of("com.example.Cache.put(Cache.java:" + line + ")"));
  }

  private static AccessSite read(String thread, int line) {
    return new AccessSite(AccessType.READ, thread, "Cache.java", line, List.of("com.example.Cache.get(Cache.java:" + line + ")"));
  }

  private RaceSummary race(String key, Verdict verdict, String... tests) {
    FieldKey field = FieldKey.parse(key);
    RaceSummary summary = store.races().upsert(
        new Race(field, Set.of(RaceKind.WR), List.of(write("t1", 10), read("t2", 20)), Set.of(tests)), null);
    if (verdict != Verdict.PENDING) {
      store.verdicts().set(field, verdict, Evidence.of(verdict.label() + " because"), null);
    }
    clock.advance(Duration.ofSeconds(1));
    return summary;
  }

  @Test
  void upsertMergesKindsAccessesAndTests() {
    FieldKey field = FieldKey.parse("com.example.Cache.hash");
    Run run = store.runs().start("triage", "abc123", null);
    RaceSummary first = store.races().upsert(
        new Race(field, Set.of(RaceKind.WR), List.of(write("t1", 10), read("t2", 20)), Set.of("CacheTest#a")),
        run.id());
    assertEquals(Verdict.PENDING, first.verdict());
    assertNull(first.verdictAt());
    clock.advance(Duration.ofMinutes(5));
    RaceSummary second = store.races().upsert(
        new Race(field, Set.of(RaceKind.WW), List.of(write("t9", 10), write("t3", 30)), Set.of("CacheTest#a", "CacheTest#b")),
        run.id());
    assertEquals(first.id(), second.id());
    assertEquals(Set.of(RaceKind.WR, RaceKind.WW), second.kinds());
    assertEquals(2, second.tests());
    assertEquals(first.firstSeenAt(), second.firstSeenAt());
    assertEquals(clock.instant(), second.lastSeenAt());

    RaceDetail detail = store.detail(field).orElseThrow();
    assertEquals(3, detail.accesses().size(), "the write at line 10 is one site whichever thread made it");
    assertEquals("t9", detail.accesses().get(0).thread(), "the latest thread name is kept");
    assertEquals(List.of("com.example.Cache.put(Cache.java:30)"), detail.accesses().get(2).stack());
    assertEquals(List.of("CacheTest#a", "CacheTest#b"), detail.tests());
  }

  @Test
  void listFiltersByVerdictTriageStateClassPrefixAndText() {
    race("com.example.Cache.hash", Verdict.DESTRUCTIVE, "com.example.CacheTest#hits");
    race("com.example.Cache.size", Verdict.BENIGN, "com.example.CacheTest#size");
    race("com.example.net.Conn.open", Verdict.QOS, "com.example.net.ConnTest#open");
    race("com.example.net.Conn$Pool.free", Verdict.PENDING, "com.example.net.PoolTest#free");
    race("org.other.Stats.count", Verdict.BENIGN, "org.other.StatsTest#count");
    store.marks().markTrustedBenign(FieldKey.parse("org.other.Stats.count"), "ada", "stats only");

    assertEquals(List.of("com.example.Cache.size", "org.other.Stats.count"),
        keys(store.races().list(RaceQuery.all().withVerdicts(Set.of(Verdict.BENIGN)).sortedBy(RaceSort.FIELD, false))));
    assertEquals(List.of("com.example.Cache.hash", "com.example.Cache.size", "org.other.Stats.count"),
        keys(store.races().list(RaceQuery.all().withVerdicts(Set.of(Verdict.BENIGN, Verdict.DESTRUCTIVE))
            .sortedBy(RaceSort.FIELD, false))));
    assertEquals(List.of("org.other.Stats.count"),
        keys(store.races().list(RaceQuery.all().withTriageState(TriageState.TRUSTED_BENIGN))));
    assertEquals(4, store.races().list(RaceQuery.all().withTriageState(TriageState.OPEN)).total());
    assertEquals(List.of("com.example.net.Conn.open", "com.example.net.Conn$Pool.free"),
        keys(store.races().list(RaceQuery.all().withClassPrefix("com.example.net"))));
    assertEquals(List.of("com.example.net.Conn$Pool.free"),
        keys(store.races().list(RaceQuery.all().withText("pooltest"))), "text matches test names, any case");
    assertEquals(List.of("com.example.Cache.size"),
        keys(store.races().list(RaceQuery.all().withText("Cache.si"))));
    assertEquals(0, store.races().list(RaceQuery.all().withText("100%_")).total(), "LIKE wildcards are literal");
    RaceSummary marked = store.races().find(FieldKey.parse("org.other.Stats.count")).orElseThrow();
    assertEquals(TriageState.TRUSTED_BENIGN, marked.triageState());
    assertEquals("ada", marked.mark().author());
  }

  @Test
  void sortsBySeverityFieldLastSeenAndTrials() {
    race("p.A.benign", Verdict.BENIGN);
    race("p.B.destructive", Verdict.DESTRUCTIVE);
    race("p.C.pending", Verdict.PENDING);
    race("p.D.qos", Verdict.QOS);
    race("p.E.flaky", Verdict.FLAKY);
    race("p.F.unexercised", Verdict.UNEXERCISED);
    FieldKey busiest = FieldKey.parse("p.A.benign");
    store.trials().addAll(List.of(
        trial(busiest, "sc", TrialOutcome.PASS), trial(busiest, "oldest", TrialOutcome.PASS)), null);

    assertEquals(List.of("p.B.destructive", "p.D.qos", "p.E.flaky", "p.F.unexercised", "p.A.benign", "p.C.pending"),
        keys(store.races().list(RaceQuery.all())));
    assertEquals(List.of("p.C.pending", "p.A.benign", "p.F.unexercised", "p.E.flaky", "p.D.qos", "p.B.destructive"),
        keys(store.races().list(RaceQuery.all().sortedBy(RaceSort.SEVERITY, true))));
    assertEquals(List.of("p.F.unexercised", "p.E.flaky", "p.D.qos", "p.C.pending", "p.B.destructive", "p.A.benign"),
        keys(store.races().list(RaceQuery.all().sortedBy(RaceSort.LAST_SEEN, true))));
    assertEquals("p.A.benign", keys(store.races().list(RaceQuery.all().sortedBy(RaceSort.TRIALS, true))).get(0));
    assertEquals(2, store.races().find(busiest).orElseThrow().trials());
  }

  @Test
  void paginatesWithATotalCount() {
    for (int i = 0; i < 23; i++) {
      race(String.format("p.Cls.f%02d", i), Verdict.BENIGN);
    }
    RaceQuery query = RaceQuery.all().sortedBy(RaceSort.FIELD, false);
    Page<RaceSummary> first = store.races().list(query.page(0, 10));
    Page<RaceSummary> last = store.races().list(query.page(20, 10));
    assertEquals(23, first.total());
    assertEquals(10, first.items().size());
    assertTrue(first.hasMore());
    assertEquals("p.Cls.f00", first.items().get(0).field().toString());
    assertEquals(List.of("p.Cls.f20", "p.Cls.f21", "p.Cls.f22"), keys(last));
    assertFalse(last.hasMore());
    assertEquals(23, store.races().list(query.page(40, 10)).total());
    assertTrue(store.races().list(query.page(40, 10)).items().isEmpty());
  }

  @Test
  void countsByVerdictIncludeZerosAndMarks() {
    race("p.A.x", Verdict.DESTRUCTIVE);
    race("p.A.y", Verdict.DESTRUCTIVE);
    race("p.A.z", Verdict.BENIGN);
    race("p.A.w", Verdict.PENDING);
    store.marks().markTrustedBenign(FieldKey.parse("p.A.z"), "ada", "ok");
    store.marks().markTrustedBenign(FieldKey.parse("p.A.noRace"), "ada", "marked ahead");
    VerdictCounts counts = store.races().counts();
    assertEquals(2, counts.of(Verdict.DESTRUCTIVE));
    assertEquals(1, counts.of(Verdict.BENIGN));
    assertEquals(1, counts.of(Verdict.PENDING));
    assertEquals(0, counts.of(Verdict.QOS));
    assertEquals(1, counts.trustedBenign(), "a mark on a field without a race is not a marked race");
    assertEquals(4, counts.total());
  }

  @Test
  void forClassIncludesNestedClassesOnly() {
    race("p.Outer.a", Verdict.BENIGN);
    race("p.Outer$Inner.b", Verdict.BENIGN);
    race("p.OuterMost.c", Verdict.BENIGN);
    assertEquals(List.of("p.Outer$Inner.b", "p.Outer.a"),
        store.races().forClass("p.Outer").stream().map(r -> r.field().toString()).toList());
  }

  @Test
  void detailAssemblesEverythingFromOneSnapshot() {
    FieldKey field = FieldKey.parse("com.example.Cache.hash");
    store.candidates().replaceForFile("src/main/java/com/example/Cache.java", List.of(
        new StaticCandidate(field, "src/main/java/com/example/Cache.java", 7, 0.8, List.of("racy-lazy-init"),
            List.of("written in put() without lock"))));
    race(field.toString(), Verdict.PENDING, "CacheTest#a");
    store.trials().addAll(List.of(
        trial(field, "oldest", TrialOutcome.FAIL),
        trial(field, "sc", TrialOutcome.PASS),
        trial(field, "oldest", TrialOutcome.PASS)), null);
    store.verdicts().set(field, Verdict.DESTRUCTIVE, Evidence.of("1/2 failed under oldest"), null);
    store.marks().comment(field, "ada", "looking");

    RaceDetail detail = store.detail(field).orElseThrow();
    assertEquals(Verdict.DESTRUCTIVE, detail.summary().verdict());
    assertEquals(List.of("sc", "oldest"), List.copyOf(detail.trialsByHeuristic().keySet()));
    assertEquals(2, detail.trialsByHeuristic().get("oldest").size());
    assertEquals(1, detail.verdictHistory().size());
    assertEquals(AuditAction.COMMENT, detail.auditLog().get(0).action());
    assertEquals(7, detail.candidate().line());
    assertTrue(store.detail(FieldKey.parse("p.No.race")).isEmpty());
  }

  static Trial trial(FieldKey field, String heuristic, TrialOutcome outcome) {
    return new Trial(field, "CacheTest#a", heuristic, 42L, outcome, Duration.ofMillis(120), 100, 7,
        outcome == TrialOutcome.PASS ? null : "java.lang.AssertionError: expected 1");
  }

  private static List<String> keys(Page<RaceSummary> page) {
    return page.items().stream().map(r -> r.field().toString()).toList();
  }
}
