package dev.racetriage.runner.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.runner.trial.ReusedTrials;
import dev.racetriage.runner.trial.StoppingRule;
import dev.racetriage.runner.trial.TrialCell;
import dev.racetriage.runner.trial.TrialEvidence;
import dev.racetriage.runner.trial.TrialExecutor;
import dev.racetriage.runner.trial.TrialInputs;
import dev.racetriage.runner.trial.TrialOutcome;
import dev.racetriage.runner.trial.TrialScheduler;
import dev.racetriage.runner.trial.TrialSession;
import dev.racetriage.runner.verdict.Classification;
import dev.racetriage.runner.verdict.VerdictClassifier;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.store.verdicts.Verdict;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A triage resumed after a kill counts the runs it takes back from the store as the killed triage counted them: a
 * stored run that another heuristic would have made alike (the agent's {@code sameChoicesAs}, kept in the store's
 * {@code same_choices}) still counts for that heuristic, so the resumed triage makes no more runs than an
 * uninterrupted one and reaches the same verdict with the same shared runs in its evidence.
 */
class ResumedSharingTest {
  private static final String FIELD = "demo.C.x";
  private static final String TEST_ID = "[engine:junit-jupiter]/[class:demo.CTest]/[method:t()]";
  private static final TrialInputs INPUTS = new TrialInputs("fp-1", "agent-test");

  @TempDir Path dir;

  /** Every run passes and serves stale values; {@code oldest}'s runs are the ones {@code oldest-but-different} makes. */
  private static TrialExecutor alike(AtomicInteger ran) {
    return spec -> {
      ran.incrementAndGet();
      boolean control = "sc".equals(spec.heuristic());
      TrialOutcome o = new TrialOutcome(spec, TrialOutcome.Result.PASS, 10, 100, control ? 0 : 5, null, "java …");
      return "oldest".equals(spec.heuristic()) ? o.withSameChoices(Set.of("oldest-but-different")) : o;
    };
  }

  private static List<TrialCell> cells() {
    List<TrialCell> cells = new ArrayList<>();
    for (String h : List.of("sc", "oldest", "oldest-but-different")) cells.add(new TrialCell(FIELD, TEST_ID, "demo.CTest#t", h));
    return cells;
  }

  private static Map<String, Long> runs(List<TrialOutcome> outcomes) {
    return outcomes.stream().collect(Collectors.groupingBy(o -> o.spec().heuristic(), Collectors.counting()));
  }

  @Test
  void aResumedTriageSharesTheRunsItTakesBackFromTheStore() throws Exception {
    AtomicInteger ran = new AtomicInteger();
    List<TrialOutcome> whole = new TrialScheduler(alike(ran), StoppingRule.standard(20), 1, null).run(cells(), o -> {});
    Classification wholeVerdict = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(whole), false);
    assertEquals(Verdict.BENIGN, wholeVerdict.verdict(), wholeVerdict.summary());
    assertTrue(runs(whole).getOrDefault("oldest-but-different", 0L) < 19, "it shares oldest's runs: " + runs(whole));

    // the killed triage stored the first half of those runs, as it stores each run when it ends
    try (TriageStore store = TriageStore.open(dir.resolve("triage.db"), dir)) {
      store.races().upsert(new Race(FieldKey.parse(FIELD), Set.of(RaceKind.WR), List.of(), Set.of()), null);
      Run killed = store.runs().start("triage", null, "fp-1");
      List<TrialOutcome> stored = whole.subList(0, whole.size() / 2);
      for (TrialOutcome o : stored) {
        store.trials().add(TriagePipeline.toStoreTrial(FieldKey.parse(FIELD), o), killed.id(), INPUTS.key(o.spec()));
      }
      store.runs().finish(killed.id(), RunStatus.ABANDONED, "killed", null);

      ran.set(0);
      ReusedTrials reuse = new ReusedTrials(spec -> store.trials().resumable(INPUTS.key(spec))
          .map(record -> TriagePipeline.fromStore(spec, record)));
      List<TrialOutcome> resumed = new TrialScheduler(reuse.around(TrialSession.perRun(alike(ran))),
          StoppingRule.standard(20), 1, null).run(cells(), o -> {});

      assertEquals(stored.size(), reuse.reusedCount());
      assertEquals(runs(whole), runs(resumed), "the resumed triage makes the runs the whole one made");
      assertEquals(whole.size() - stored.size(), ran.get(), "and runs only those the killed one had not");
      Classification verdict = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(resumed), false);
      assertEquals(wholeVerdict.verdict(), verdict.verdict());
      assertEquals(wholeVerdict.facts().get("failureRateBound"), verdict.facts().get("failureRateBound"));
    }
  }
}
