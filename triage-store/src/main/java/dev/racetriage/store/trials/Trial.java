package dev.racetriage.store.trials;

import dev.racetriage.store.FieldKey;
import java.time.Duration;
import java.util.Objects;

/**
 * One run of {@code test} with only {@code field} jumbled under {@code heuristic} ({@code sc}, {@code oldest},
 * {@code oldest-but-different}, {@code random}, {@code random-but-different}) and {@code seed}: its outcome, how
 * long it took, how many reads of the field it made and how many of them returned a stale value, and the failure
 * (stack trace or timeout note; null when it passed); and {@code sameChoices}, the other adversarial heuristics that
 * would have served every read of the run alike (the agent's {@code sameChoicesAs}; empty when none would, null when
 * not known — a trial recorded before the store kept it).
 */
public record Trial(
    FieldKey field,
    String test,
    String heuristic,
    long seed,
    TrialOutcome outcome,
    Duration duration,
    long reads,
    long staleReads,
    String failure,
    java.util.Set<String> sameChoices) {
  public Trial {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(test, "test");
    Objects.requireNonNull(heuristic, "heuristic");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(duration, "duration");
    if (staleReads < 0 || reads < 0) {
      throw new IllegalArgumentException("read counts must be >= 0");
    }
    sameChoices = sameChoices == null ? null : java.util.Set.copyOf(sameChoices);
  }

  /** A trial with no record of the heuristics its run would have been alike under. */
  public Trial(FieldKey field, String test, String heuristic, long seed, TrialOutcome outcome, Duration duration,
               long reads, long staleReads, String failure) {
    this(field, test, heuristic, seed, outcome, duration, reads, staleReads, failure, null);
  }
}
