package dev.racetriage.store.trials;

import dev.racetriage.store.FieldKey;
import java.time.Duration;
import java.util.Objects;

/**
 * One run of {@code test} with only {@code field} jumbled under {@code heuristic} ({@code sc}, {@code oldest},
 * {@code oldest-but-different}, {@code random}, {@code random-but-different}) and {@code seed}: its outcome, how
 * long it took, how many reads of the field it made and how many of them returned a stale value, and the failure
 * (stack trace or timeout note; null when it passed).
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
    String failure) {
  public Trial {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(test, "test");
    Objects.requireNonNull(heuristic, "heuristic");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(duration, "duration");
    if (staleReads < 0 || reads < 0) {
      throw new IllegalArgumentException("read counts must be >= 0");
    }
  }
}
