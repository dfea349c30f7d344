package dev.racetriage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.store.trials.HeuristicSummary;
import dev.racetriage.store.trials.Trial;
import dev.racetriage.store.trials.TrialOutcome;
import dev.racetriage.store.trials.TrialRecord;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import dev.racetriage.store.verdicts.VerdictRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

@OnEveryEngine
class VerdictAndTrialTest {
  @Parameter TestEngine engine;

  private static final FieldKey FIELD = FieldKey.parse("com.example.Flag.done");

  @TempDir Path project;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
  private TriageStore store;

  @BeforeEach
  void open() {
    store = TriageStore.open(engine.location(project, "triage.db"), project, clock);
    store.races().upsert(new Race(FIELD, Set.of(RaceKind.WR), List.of(), Set.of("FlagTest#stops")), null);
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void verdictHistoryKeepsARowPerChangeWithTimeAndRun() {
    Run first = store.runs().start("triage", "c1", "fp1");
    store.verdicts().set(FIELD, Verdict.UNEXERCISED, Evidence.of("no stale value served"), first.id());
    clock.advance(Duration.ofHours(1));
    Run second = store.runs().start("daemon", "c2", "fp2");
    Evidence evidence = new Evidence("3/20 failed under oldest, 0/20 under sc",
        "racetriage replay --field com.example.Flag.done --test FlagTest#stops --heuristic oldest --seed 7",
        "java.lang.AssertionError\n\tat FlagTest.stops(FlagTest.java:12)", Map.of("observationRate", "0.41"));
    VerdictRecord current = store.verdicts().set(FIELD, Verdict.DESTRUCTIVE, evidence, second.id());
    clock.advance(Duration.ofHours(1));
    VerdictRecord same = store.verdicts().set(FIELD, Verdict.DESTRUCTIVE, evidence, second.id());

    assertEquals(current, same, "an unchanged verdict adds no history row");
    List<VerdictRecord> history = store.verdicts().history(FIELD);
    assertEquals(List.of(Verdict.UNEXERCISED, Verdict.DESTRUCTIVE), history.stream().map(VerdictRecord::verdict).toList());
    assertEquals(List.of(first.id(), second.id()), history.stream().map(VerdictRecord::runId).toList());
    assertEquals(Instant.parse("2026-03-01T11:00:00Z"), history.get(1).decidedAt());
    assertEquals(evidence, history.get(1).evidence(), "evidence round-trips through JSON");
    assertEquals(current, store.verdicts().current(FIELD).orElseThrow());
    assertEquals(Verdict.DESTRUCTIVE, store.races().find(FIELD).orElseThrow().verdict());
    assertEquals(Map.of(FIELD, Verdict.DESTRUCTIVE), store.verdicts().currentByField());

    store.verdicts().set(FIELD, Verdict.DESTRUCTIVE, Evidence.of("5/20 failed under oldest"), null);
    assertEquals(3, store.verdicts().history(FIELD).size(), "new evidence is a new row");
  }

  @Test
  void verdictsAndTrialsNeedARecordedRace() {
    FieldKey unknown = FieldKey.parse("com.example.Unknown.x");
    StoreException error = assertThrows(StoreException.class,
        () -> store.verdicts().set(unknown, Verdict.BENIGN, Evidence.of("x"), null));
    assertTrue(error.getMessage().contains("no race is recorded on com.example.Unknown.x"), error.getMessage());
    assertThrows(StoreException.class, () -> store.trials().addAll(List.of(
        trial("sc", TrialOutcome.PASS, 10, 0), RaceRepositoryTest.trial(unknown, "sc", TrialOutcome.PASS)), null));
    assertTrue(store.trials().forRace(FIELD).isEmpty(), "a batch with a bad trial is not half stored");
    assertTrue(store.verdicts().current(FIELD).isEmpty());
  }

  @Test
  void trialsAreGroupedAndSummarisedByHeuristicWithTheControlFirst() {
    Run run = store.runs().start("triage", null, null);
    List<TrialRecord> added = store.trials().addAll(List.of(
        trial("random", TrialOutcome.PASS, 100, 0),
        trial("oldest", TrialOutcome.FAIL, 300, 40),
        trial("sc", TrialOutcome.PASS, 100, 0),
        trial("oldest", TrialOutcome.TIMEOUT, 900, 60),
        trial("sc", TrialOutcome.PASS, 200, 0)), run.id());
    assertEquals(5, added.size());
    assertEquals(run.id(), added.get(0).runId());

    Map<String, List<TrialRecord>> groups = store.trials().byHeuristic(FIELD);
    assertEquals(List.of("sc", "oldest", "random"), List.copyOf(groups.keySet()));
    assertEquals(TrialOutcome.FAIL, groups.get("oldest").get(0).trial().outcome());
    assertEquals("boom", groups.get("oldest").get(0).trial().failure());
    assertNull(groups.get("sc").get(0).trial().failure());

    List<HeuristicSummary> summaries = store.trials().summaries(FIELD);
    assertEquals(List.of("sc", "oldest", "random"), summaries.stream().map(HeuristicSummary::heuristic).toList());
    HeuristicSummary oldest = summaries.get(1);
    assertEquals(2, oldest.runs());
    assertEquals(1, oldest.failures());
    assertEquals(1, oldest.timeouts());
    assertEquals(0.5, oldest.observationRate(), 1e-9);
    assertEquals(Duration.ofMillis(600), oldest.meanDuration());
    assertEquals(Duration.ofMillis(900), oldest.maxDuration());
    assertEquals(0.0, summaries.get(0).observationRate());
  }

  @Test
  void runsStartAndFinish() {
    Run started = store.runs().start("triage", "abc", null);
    assertEquals(RunStatus.RUNNING, started.status());
    assertNull(started.finishedAt());
    clock.advance(Duration.ofMinutes(3));
    Run finished = store.runs().finish(started.id(), RunStatus.SUCCEEDED, "12 races", "sha256:ff");
    assertEquals(RunStatus.SUCCEEDED, finished.status());
    assertEquals(Instant.parse("2026-03-01T10:03:00Z"), finished.finishedAt());
    assertEquals("sha256:ff", finished.fingerprint());
    assertEquals("abc", finished.commitId());
    Run failed = store.runs().start("daemon", "abd", "fp");
    store.runs().finish(failed.id(), RunStatus.FAILED, "build failed", null);
    assertEquals(finished, store.runs().lastSucceeded().orElseThrow());
    assertEquals(List.of(failed.id(), started.id()), store.runs().recent(10).stream().map(Run::id).toList());
    assertEquals("fp", store.runs().find(failed.id()).orElseThrow().fingerprint());
    assertThrows(StoreException.class, () -> store.runs().finish(999, RunStatus.FAILED, null, null));
  }

  private static Trial trial(String heuristic, TrialOutcome outcome, long millis, long stale) {
    return new Trial(FIELD, "FlagTest#stops", heuristic, 7L, outcome, Duration.ofMillis(millis), 100, stale,
        outcome == TrialOutcome.PASS ? null : "boom");
  }
}
