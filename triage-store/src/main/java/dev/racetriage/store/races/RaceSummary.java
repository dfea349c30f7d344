package dev.racetriage.store.races;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.marks.TrustedBenignMark;
import dev.racetriage.store.verdicts.Verdict;
import java.time.Instant;
import java.util.Set;

/**
 * A row of the race list: the race, its current verdict (and when it was given; null while pending), its mark
 * ({@code mark} is null when the race is open), how many tests touched it and how many trials ran, its
 * {@link Lifecycle}, and the last run that detected it ({@code lastRunId}; null if unknown or deleted).
 */
public record RaceSummary(
    long id,
    FieldKey field,
    Set<RaceKind> kinds,
    Verdict verdict,
    Instant verdictAt,
    TrustedBenignMark mark,
    int tests,
    int trials,
    Instant firstSeenAt,
    Instant lastSeenAt,
    Lifecycle lifecycle,
    Long lastRunId) {

  /** Fixed wins over a mark (the race is gone either way); a marked regression is trusted-benign. */
  public TriageState triageState() {
    if (lifecycle == Lifecycle.FIXED) return TriageState.FIXED;
    if (mark != null) return TriageState.TRUSTED_BENIGN;
    return lifecycle == Lifecycle.REGRESSED ? TriageState.REGRESSED : TriageState.OPEN;
  }
}
