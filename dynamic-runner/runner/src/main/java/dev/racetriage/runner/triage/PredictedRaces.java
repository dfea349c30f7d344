package dev.racetriage.runner.triage;

import dev.racetriage.runner.detect.DetectedRace;
import dev.racetriage.runner.trial.TrialOutcome;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Races only the agent's predictive analysis found ({@code --predict}: WCP; happens-before ordered the accesses in
 * every detection run that saw them): the verdict's evidence says so in its facts — {@code predicted} (still a
 * prediction, or exercised by trials that served stale values) and {@code predictedWitness} (the lock order to flip)
 * — so the stored verdict, the report and the dashboard keep it without a schema change.
 */
public final class PredictedRaces {
  private PredictedRaces() {
  }

  public static Map<String, String> withFacts(Map<String, String> facts, DetectedRace race, List<TrialOutcome> trials) {
    if (!race.predicted()) {
      return facts;
    }
    long stale = trials.stream().mapToLong(TrialOutcome::staleReads).sum();
    Map<String, String> more = new LinkedHashMap<>(facts);
    more.put("predicted", stale == 0
        ? "yes: happens-before ordered the accesses in every detection run; another schedule races them (not exercised"
            + " by a trial yet)"
        : "exercised: predicted (happens-before ordered the accesses in detection), and trials served " + stale
            + " stale value(s)");
    if (race.witness() != null) {
      more.put("predictedWitness", race.witness());
    }
    return more;
  }
}
