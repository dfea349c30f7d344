package dev.racetriage.store.candidates;

import dev.racetriage.store.FieldKey;
import java.util.List;
import java.util.Objects;

/**
 * A field the static prefilter flags as possibly racy: where it is declared ({@code file} as the prefilter names it,
 * usually a project-relative path; 1-based {@code line}), a confidence in [0, 1], the pattern names it matched
 * ("double-checked-locking", "lossy-counter"...) and the human-readable reasons.
 */
public record StaticCandidate(
    FieldKey field, String file, int line, double confidence, List<String> patterns, List<String> reasons) {
  public StaticCandidate {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(file, "file");
    patterns = List.copyOf(patterns);
    reasons = List.copyOf(reasons);
  }
}
