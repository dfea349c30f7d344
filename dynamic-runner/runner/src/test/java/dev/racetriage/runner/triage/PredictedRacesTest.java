package dev.racetriage.runner.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.runner.detect.DetectedRace;
import dev.racetriage.runner.trial.TrialOutcome;
import dev.racetriage.runner.trial.TrialSpec;
import dev.racetriage.store.verdicts.Verdict;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A race only --predict found stays predicted until a trial serves a stale value for it, and says so in its facts. */
class PredictedRacesTest {
  private static final String WITNESS = "flip the monitor of java.lang.Object@1f: corpus-0 released it before"
      + " corpus-1 acquired it, and their critical sections have no conflicting access";

  private static DetectedRace race(boolean predicted) {
    DetectedRace.Access a = new DetectedRace.Access("corpus-1", "demo.Counter", "refresh", "Counter.java", 20, List.of());
    return new DetectedRace("demo.Counter.visits", 2, 1, 1, a, a, List.of(), List.of("demo.CounterTest#t"), List.of(),
        predicted, predicted ? WITNESS : null);
  }

  private static TrialOutcome trial(long staleReads) {
    return new TrialOutcome(new TrialSpec("demo.Counter.visits", "demo.CounterTest#t", "demo.CounterTest#t",
        "oldest", 1), TrialOutcome.Result.PASS, 10, 3, staleReads, null, null);
  }

  private static RaceFinding finding(DetectedRace race, long staleReads) {
    return new RaceFinding(race, Verdict.UNEXERCISED, "no stale value", "oldest", 0,
        List.of(new RaceFinding.TrialSummary("oldest", 5, 0, staleReads, 10)), null, null);
  }

  @Test
  void aPredictedRaceIsPredictedUntilATrialServesAStaleValue() {
    assertTrue(finding(race(true), 0).predicted());
    assertFalse(finding(race(true), 3).predicted(), "a trial exercised it");
    assertFalse(finding(race(false), 0).predicted(), "observed by detection");
  }

  @Test
  void theEvidenceFactsSayPredictedAndTheWitness() {
    Map<String, String> facts = PredictedRaces.withFacts(Map.of("k", "v"), race(true), List.of(trial(0)));
    assertTrue(facts.get("predicted").startsWith("yes: happens-before ordered the accesses"), facts.toString());
    assertEquals(WITNESS, facts.get("predictedWitness"));
    assertEquals("v", facts.get("k"));
    assertTrue(PredictedRaces.withFacts(Map.of(), race(true), List.of(trial(2))).get("predicted")
        .startsWith("exercised: "));
    Map<String, String> observed = Map.of("k", "v");
    assertSame(observed, PredictedRaces.withFacts(observed, race(false), List.of(trial(0))));
  }
}
