package dev.racetriage.store;

import dev.racetriage.store.engine.StoreLocation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.runs.RunOwner;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.store.schema.Migrations;
import dev.racetriage.store.schema.Migrator;
import dev.racetriage.store.sqlite.Database;
import dev.racetriage.store.trials.Trial;
import dev.racetriage.store.trials.TrialOutcome;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/** A run whose process died is marked ABANDONED by the next open, whoever opens; a live owner's run stays RUNNING. */
@OnEveryEngine
class RunOwnershipTest {
  @Parameter TestEngine engine;

  @TempDir Path project;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
  private Process child;

  @AfterEach
  void killChild() throws InterruptedException {
    if (child != null) {
      child.destroyForcibly().waitFor();
    }
  }

  @Test
  void startRecordsThisProcessAsOwnerWithAHeartbeat() {
    try (TriageStore store = open()) {
      Run run = store.runs().start("triage", "c1", "fp");
      assertEquals(ProcessHandle.current().pid(), run.owner().pid());
      assertEquals(RunOwner.localHost(), run.owner().host());
      assertEquals(clock.instant(), run.heartbeatAt());
      clock.advance(Duration.ofSeconds(30));
      assertEquals(clock.instant(), store.runs().heartbeat(run.id()).heartbeatAt());
    }
  }

  @Test
  void aRunWhoseProcessDiedIsAbandonedAtTheNextOpen() throws Exception {
    child = new ProcessBuilder("sleep", "600").start();
    RunOwner owner = RunOwner.of(child.toHandle());
    long runId;
    try (TriageStore store = open()) {
      runId = store.runs().start("triage", null, null, owner).id();
    }
    try (TriageStore store = open()) {
      assertEquals(List.of(), store.abandonedAtOpen(), "its process is still alive");
      assertEquals(RunStatus.RUNNING, store.runs().find(runId).orElseThrow().status());
    }
    child.destroyForcibly().waitFor(); // kill -9, as the user did

    try (TriageStore store = open()) {
      Run run = store.runs().find(runId).orElseThrow();
      assertEquals(RunStatus.ABANDONED, run.status());
      assertEquals(clock.instant(), run.finishedAt());
      assertEquals("abandoned: its process (PID " + owner.pid() + " on host " + owner.host() + ") is gone",
          run.message());
      assertEquals(List.of(run), store.abandonedAtOpen());
    }
    try (TriageStore store = open()) {
      assertEquals(List.of(), store.abandonedAtOpen(), "marked once");
    }
  }

  /** The dashboard reads a read-only store, which cannot mark the run: it is still never listed as running. */
  @Test
  void aReadOnlyStoreListsADeadProcesssRunAsAbandoned() throws Exception {
    child = new ProcessBuilder("sleep", "600").start();
    RunOwner owner = RunOwner.of(child.toHandle());
    long runId;
    try (TriageStore store = open()) {
      runId = store.runs().start("triage", null, null, owner).id();
    }
    child.destroyForcibly().waitFor();

    try (TriageStore store = TriageStore.openReadOnly(engine.location(project, "triage.db"), project)) {
      Run shown = store.runs().recent(10).get(0);
      assertEquals(runId, shown.id());
      assertEquals(RunStatus.ABANDONED, shown.status());
      assertTrue(shown.message().contains("is gone"), shown.message());
      assertEquals(RunStatus.RUNNING, store.runs().find(runId).orElseThrow().status(), "nothing was written");
    }
  }

  @Test
  void aLiveLocalOwnerKeepsItsRunWithoutHeartbeats() {
    try (TriageStore store = open()) {
      Run run = store.runs().start("daemon", null, null);
      clock.advance(Duration.ofHours(5));
      try (TriageStore other = open()) {
        assertEquals(List.of(), other.abandonedAtOpen());
        assertEquals(RunStatus.RUNNING, other.runs().find(run.id()).orElseThrow().status());
      }
    }
  }

  @Test
  void aReusedPidIsNotMistakenForTheOwner() throws Exception {
    child = new ProcessBuilder("sleep", "600").start();
    RunOwner live = RunOwner.of(child.toHandle());
    // The same pid, but the process that owned the run started an hour before the one that has the pid now.
    RunOwner earlier = new RunOwner(live.pid(), live.host(), live.processStartedAt().minus(Duration.ofHours(1)));
    try (TriageStore store = open()) {
      store.runs().start("triage", null, null, earlier);
    }
    try (TriageStore store = open()) {
      assertEquals(1, store.abandonedAtOpen().size());
      assertTrue(store.abandonedAtOpen().get(0).message().contains("is gone"));
    }
  }

  @Test
  void aRemoteOwnerIsAbandonedOnlyAfterTenMinutesWithoutAHeartbeat() {
    RunOwner remote = new RunOwner(4242, "build-agent-7", null);
    long runId;
    Instant lastBeat;
    try (TriageStore store = open()) {
      runId = store.runs().start("triage", null, null, remote).id();
      clock.advance(Duration.ofMinutes(9));
      lastBeat = store.runs().heartbeat(runId).heartbeatAt();
    }
    clock.advance(Duration.ofMinutes(10));
    try (TriageStore store = open()) {
      assertEquals(List.of(), store.abandonedAtOpen(), "exactly ten minutes is still within the limit");
    }
    clock.advance(Duration.ofSeconds(1));
    try (TriageStore store = open()) {
      Run run = store.runs().find(runId).orElseThrow();
      assertEquals(RunStatus.ABANDONED, run.status());
      assertEquals("abandoned: no heartbeat since " + lastBeat + ", more than 10 min before this check (its process "
          + "is PID 4242 on host build-agent-7)", run.message());

      // The owner was only suspended: its next heartbeat revives the run, and it finishes normally.
      Run revived = store.runs().heartbeat(runId);
      assertEquals(RunStatus.RUNNING, revived.status());
      assertNull(revived.finishedAt());
      assertNull(revived.message());
      assertEquals(RunStatus.SUCCEEDED, store.runs().finish(runId, RunStatus.SUCCEEDED, "done", null).status());
    }
  }

  @Test
  void aVersionTwoFileKeepsItsRunsAndTheirReferencesAndItsGhostRunIsAbandoned() {
    StoreLocation file = engine.location(project, "v2.db");
    FieldKey field = FieldKey.parse("com.example.Old.flag");
    try (Database db = Database.open(file, Clock.systemUTC())) {
      new Migrator(new Migrations(Migrations.bundled().steps().subList(0, 2))).migrate(db);
      db.write("seed version 2", tx -> {
        tx.update("INSERT INTO run(id, kind, started_at, status) VALUES (7, 'triage', 0, 'RUNNING')");
        tx.update("INSERT INTO run(id, kind, started_at, finished_at, status) VALUES (8, 'triage', 0, 1, 'SUCCEEDED')");
        tx.update("INSERT INTO field(id, field_key, class_name, member, is_array)"
            + " VALUES (1, 'com.example.Old.flag', 'com.example.Old', 'flag', 0)");
        tx.update("INSERT INTO race(id, field_id, has_wr, has_ww, first_seen_at, last_seen_at, first_run_id,"
            + " last_run_id) VALUES (1, 1, 1, 0, 0, 0, 7, 8)");
        return tx.update("INSERT INTO trial(race_id, run_id, test, heuristic, seed, outcome, duration_ms, reads,"
            + " stale_reads, recorded_at) VALUES (1, 7, 'OldTest#t', 'sc', 1, 'PASS', 5, 1, 0, 0)");
      });
    }
    try (TriageStore store = TriageStore.open(file, project, clock)) {
      assertEquals(Migrations.bundled().latestVersion(), store.schemaVersion());
      Run ghost = store.runs().find(7).orElseThrow();
      assertEquals(RunStatus.ABANDONED, ghost.status());
      assertNull(ghost.owner());
      assertTrue(ghost.message().contains("it records no owning process"), ghost.message());
      assertEquals(RunStatus.SUCCEEDED, store.runs().find(8).orElseThrow().status());
      assertEquals(7L, store.trials().forRace(field).get(0).runId(), "the trial still points at its run");
      store.races().upsert(new Race(field, Set.of(RaceKind.WR), List.of(), Set.of()), 8L);
      store.trials().add(new Trial(field, "OldTest#t", "sc", 2, TrialOutcome.PASS, Duration.ofMillis(1), 0, 0, null),
          8L);
    }
  }

  private TriageStore open() {
    return TriageStore.open(engine.location(project, "triage.db"), project, clock);
  }
}
