package dev.racetriage.store;

import dev.racetriage.store.engine.StoreLocation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.store.trials.InputsKey;
import dev.racetriage.store.trials.Trial;
import dev.racetriage.store.trials.TrialOutcome;
import dev.racetriage.store.trials.TrialRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/** Trials persisted one by one survive a killed triage, and a re-run finds them by the key of their inputs. */
@OnEveryEngine
class ResumableTrialsTest {
  @Parameter TestEngine engine;

  private static final FieldKey FIELD = ConcurrencyWorker.TRIAL_FIELD;

  @TempDir Path project;

  @Test
  void trialsOfAKilledTriageAreKeptAndFoundByTheirInputs() throws Exception {
    StoreLocation db = engine.location(project, ".racetriage/triage.db");
    long childPid;
    try (ChildJvm triage = ChildJvm.start(ConcurrencyWorker.class, project.resolve("trialer.err"),
        "trialer", db.display(), project.toString(), "3")) {
      triage.awaitLine(ConcurrencyWorker.TRIALS_ADDED);
      childPid = triage.pid();
      triage.kill(); // kill -9 in the middle of the triage
    }
    List<String> planned = IntStream.range(0, 5).mapToObj(ConcurrencyWorker::inputsKey).toList();
    try (TriageStore store = TriageStore.open(db, project)) {
      Run killed = store.abandonedAtOpen().get(0);
      assertEquals(RunStatus.ABANDONED, killed.status());
      assertEquals(childPid, killed.owner().pid());

      for (int i = 0; i < 3; i++) {
        TrialRecord record = store.trials().resumable(planned.get(i)).orElseThrow();
        assertEquals(killed.id(), record.runId());
        assertEquals(i, record.trial().seed());
        assertEquals(planned.get(i), record.inputsKey());
      }
      assertTrue(store.trials().resumable(planned.get(3)).isEmpty(), "the cells not finished are run again");
      assertTrue(store.trials().resumable(planned.get(4)).isEmpty());
      assertEquals(3, store.trials().byHeuristic(FIELD).get("oldest").size(),
          "verdicts count the trials of the abandoned run");
    }
  }

  @Test
  void onlyTrialsWithTheSameInputsAreReusable() {
    try (TriageStore store = TriageStore.open(engine.location(project, "triage.db"), project)) {
      store.races().upsert(new Race(FIELD, Set.of(RaceKind.WR), List.of(), Set.of()), null);
      Run first = store.runs().start("triage", null, "fp-1");
      String key = InputsKey.of("fp-1", "agent-0.1", FIELD.toString(), "T#t", "sc", "1", "[0]");
      String otherFingerprint = InputsKey.of("fp-2", "agent-0.1", FIELD.toString(), "T#t", "sc", "1", "[0]");
      store.trials().add(trial(1), first.id(), key);
      store.trials().add(trial(2), first.id()); // the old signature: no key, never reused
      TrialRecord unkeyed = store.trials().addAll(List.of(trial(3)), first.id()).get(0);
      assertNull(unkeyed.inputsKey());

      assertEquals(1L, store.trials().resumable(key).orElseThrow().trial().seed());
      assertTrue(store.trials().resumable(otherFingerprint).isEmpty());
      assertEquals(3, store.trials().forRace(FIELD).size());
    }
  }

  /** A reused trial moves into the run that reuses it: counted once, and never offered again once that run succeeds. */
  @Test
  void anAdoptedTrialBelongsToTheRunThatReusedItAndASucceededRunsTrialsAreNotOffered() {
    try (TriageStore store = TriageStore.open(engine.location(project, "triage.db"), project)) {
      store.races().upsert(new Race(FIELD, Set.of(RaceKind.WR), List.of(), Set.of()), null);
      Run killed = store.runs().start("triage", null, "fp-1");
      String key = InputsKey.of("fp-1", "agent-0.1", FIELD.toString(), "T#t", "sc", "1", "[0]");
      store.trials().add(trial(1), killed.id(), key);
      store.runs().finish(killed.id(), RunStatus.ABANDONED, "killed", null);

      Run resumed = store.runs().start("triage", null, "fp-1");
      store.trials().adopt(key, resumed.id());
      assertEquals(resumed.id(), store.trials().resumable(key).orElseThrow().runId());
      assertEquals(1, store.trials().forRace(FIELD).size(), "moved, not copied");

      store.runs().finish(resumed.id(), RunStatus.SUCCEEDED, "done", "fp-1");
      assertTrue(store.trials().resumable(key).isEmpty(), "a complete triage's trials are not reused");
    }
  }

  /**
   * The heuristics a stored run would have been alike under come back as they were written: a set, none, or not
   * known (a trial recorded without them shares nothing when a resumed triage counts it).
   */
  @Test
  void aResumedTrialKeepsTheHeuristicsItsRunWasAlikeUnder() {
    try (TriageStore store = TriageStore.open(engine.location(project, "triage.db"), project)) {
      store.races().upsert(new Race(FIELD, Set.of(RaceKind.WR), List.of(), Set.of()), null);
      Run killed = store.runs().start("triage", null, "fp-1");
      Map<String, Set<String>> alike = new java.util.LinkedHashMap<>();
      alike.put("1", Set.of("oldest-but-different", "random-but-different"));
      alike.put("2", Set.of());
      alike.put("3", null);
      for (Map.Entry<String, Set<String>> e : alike.entrySet()) {
        long seed = Long.parseLong(e.getKey());
        store.trials().add(new Trial(FIELD, "T#t", "oldest", seed, TrialOutcome.PASS, Duration.ofMillis(5), 4, 2, null,
            e.getValue()), killed.id(), key(seed));
      }
      store.runs().finish(killed.id(), RunStatus.ABANDONED, "killed", null);
      for (Map.Entry<String, Set<String>> e : alike.entrySet()) {
        Trial back = store.trials().resumable(key(Long.parseLong(e.getKey()))).orElseThrow().trial();
        assertEquals(e.getValue(), back.sameChoices(), "seed " + e.getKey());
      }
      assertNull(store.trials().forRace(FIELD).get(2).trial().sameChoices());
    }
  }

  private static String key(long seed) {
    return InputsKey.of("fp-1", "agent-0.1", FIELD.toString(), "T#t", "oldest", Long.toString(seed), "[0]");
  }

  @Test
  void keysSeparateTheirParts() {
    assertTrue(!InputsKey.of("ab", "c").equals(InputsKey.of("a", "bc")));
    assertEquals(InputsKey.of("a", "b"), InputsKey.of(List.of("a", "b")));
    assertEquals(64, InputsKey.of("x").length());
  }

  private static Trial trial(long seed) {
    return new Trial(FIELD, "T#t", "sc", seed, TrialOutcome.PASS, Duration.ofMillis(5), 1, 0, null);
  }
}
