package dev.racetriage.lsp;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.AccessType;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.trials.Trial;
import dev.racetriage.store.trials.TrialOutcome;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Verdicts written through the store's own API, as the daemon would write them. */
final class StoreFixture {
  static final String INSTANCE = "demo.LazySingletonBad.instance";
  static final String TASK = "demo.WorkerBad.task";
  static final String RUNNING = "demo.WorkerBad.running";
  static final String DONE = "demo.WorkerBad.done";
  static final String FIRST_FAILURE = "java.lang.NullPointerException: slots is null\n"
      + "\tat demo.LazySingletonBad.slot(LazySingletonBad.java:21)";

  private StoreFixture() {}

  static TriageStore open(Path project) {
    return TriageStore.open(TriageStore.defaultDatabase(project), project);
  }

  static void race(TriageStore store, String key, int readLine, int writeLine, String file) {
    FieldKey field = FieldKey.parse(key);
    String frameClass = field.className();
    String method = frameClass + ".access(" + file + ":";
    store.races().upsert(new Race(field, Set.of(RaceKind.WR), List.of(
        new AccessSite(AccessType.READ, "reader", file, readLine, List.of(method + readLine + ")")),
        new AccessSite(AccessType.WRITE, "writer", file, writeLine, List.of(method + writeLine + ")"))),
        Set.of("demo.DemoTest#concurrent")), null);
  }

  /** instance: destructive, with trials (sc passes, oldest fails once in two). */
  static void destructiveInstance(TriageStore store) {
    race(store, INSTANCE, 10, 13, "LazySingletonBad.java");
    FieldKey field = FieldKey.parse(INSTANCE);
    store.trials().addAll(List.of(
        trial(field, "sc", TrialOutcome.PASS, null),
        trial(field, "sc", TrialOutcome.PASS, null),
        trial(field, "oldest", TrialOutcome.FAIL, FIRST_FAILURE),
        trial(field, "oldest", TrialOutcome.PASS, null)), null);
    store.verdicts().set(field, Verdict.DESTRUCTIVE, new Evidence("1/2 runs failed under oldest, 0/2 under sc",
        "racetriage triage --replay demo.DemoTest#concurrent --field " + INSTANCE + " --seed 7", FIRST_FAILURE,
        Map.of("observation rate", "0.40")), null);
  }

  private static Trial trial(FieldKey field, String heuristic, TrialOutcome outcome, String failure) {
    return new Trial(field, "demo.DemoTest#concurrent", heuristic, 7, outcome, Duration.ofMillis(120), 10,
        heuristic.equals("sc") ? 0 : 4, failure);
  }

  /** WorkerBad: task qos, done benign, running benign but marked trusted-benign by the team. */
  static void workerVerdicts(TriageStore store) {
    race(store, TASK, 16, 10, "WorkerBad.java");
    store.verdicts().set(FieldKey.parse(TASK), Verdict.QOS, Evidence.of("oldest runs 2.1x slower than sc"), null);
    race(store, DONE, 18, 18, "WorkerBad.java");
    store.verdicts().set(FieldKey.parse(DONE), Verdict.BENIGN, Evidence.of("stale reads served, no change"), null);
    race(store, RUNNING, 15, 36, "WorkerBad.java");
    store.verdicts().set(FieldKey.parse(RUNNING), Verdict.BENIGN, Evidence.of("stale reads served"), null);
    store.marks().markTrustedBenign(FieldKey.parse(RUNNING), "ana", "stop flag; a late stop is fine");
  }
}
