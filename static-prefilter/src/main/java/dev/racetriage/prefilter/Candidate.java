package dev.racetriage.prefilter;

import dev.racetriage.prefilter.facts.Access;
import dev.racetriage.prefilter.facts.PatternHit;
import dev.racetriage.prefilter.rank.Reason;
import java.util.List;

/**
 * A field the prefilter thinks may be racy.
 *
 * @param field field key, {@code pkg.Outer$Inner.field}
 * @param file the declaring source file
 * @param line the line of the declaration
 * @param confidence between 0.05 and 0.95: {@link dev.racetriage.prefilter.rank.Confidence#BASE} adjusted by the
 *     reasons
 * @param patterns named racy shapes found on the field, each with its fix ({@link PatternHit#pattern()})
 * @param reasons why the confidence is what it is, in order
 * @param accesses every access to the field, with the locks held (initialisation included, marked as such)
 */
public record Candidate(
    String field,
    String file,
    int line,
    double confidence,
    List<PatternHit> patterns,
    List<Reason> reasons,
    List<Access> accesses) {

  public Candidate {
    patterns = List.copyOf(patterns);
    reasons = List.copyOf(reasons);
    accesses = List.copyOf(accesses);
  }

  /** Whether the candidate is declared in, or accessed from, {@code file}. */
  public boolean touches(String file) {
    return this.file.equals(file) || accesses.stream().anyMatch(a -> a.file().equals(file));
  }
}
