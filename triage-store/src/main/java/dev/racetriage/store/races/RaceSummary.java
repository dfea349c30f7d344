package dev.racetriage.store.races;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.marks.TrustedBenignMark;
import dev.racetriage.store.verdicts.Verdict;
import java.time.Instant;
import java.util.Set;

/**
 * A row of the race list: the race, its current verdict (and when it was given; null while pending), its mark
 * ({@code mark} is null when the race is open), how many tests touched it and how many trials ran.
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
    Instant lastSeenAt) {

  public TriageState triageState() {
    return mark == null ? TriageState.OPEN : TriageState.TRUSTED_BENIGN;
  }
}
