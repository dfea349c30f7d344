package dev.racetriage.dashboard.api;

import dev.racetriage.store.detail.RaceDetail;
import dev.racetriage.store.trials.TrialOutcome;
import dev.racetriage.store.trials.TrialRecord;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.VerdictRecord;
import java.util.Comparator;
import java.util.List;

/**
 * The evidence shown next to a race: the newest verdict's summary and replay command, and the first failure's stack
 * trace — from the verdict, or, while none names it (e.g. trials recorded but not yet classified), from the oldest
 * failed trial. Fields are null when unknown.
 */
public record LatestEvidence(String summary, String replayCommand, String firstFailure) {

  public static LatestEvidence of(RaceDetail detail) {
    List<VerdictRecord> history = detail.verdictHistory();
    Evidence evidence = history.isEmpty() ? null : history.get(history.size() - 1).evidence();
    String firstFailure = evidence == null || blank(evidence.firstFailure())
        ? firstFailedTrial(detail)
        : evidence.firstFailure();
    return new LatestEvidence(
        evidence == null || blank(evidence.summary()) ? null : evidence.summary(),
        evidence == null || blank(evidence.replayCommand()) ? null : evidence.replayCommand(),
        firstFailure);
  }

  private static String firstFailedTrial(RaceDetail detail) {
    return detail.trialsByHeuristic().values().stream()
        .flatMap(List::stream)
        .filter(t -> t.trial().outcome() != TrialOutcome.PASS && !blank(t.trial().failure()))
        .min(Comparator.comparingLong(TrialRecord::id))
        .map(t -> t.trial().failure())
        .orElse(null);
  }

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }
}
