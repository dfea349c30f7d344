package dev.racetriage.store.races;

import dev.racetriage.store.verdicts.Verdict;
import java.util.EnumSet;
import java.util.Set;

/**
 * Filters, order and page of the race list. Empty {@code verdicts} and null {@code triageState}, {@code classPrefix}
 * and {@code text} match everything. {@code text} is a case-insensitive substring of the field key, an access's
 * source file or a test name. Start from {@link #all()} and narrow with the {@code with...} methods.
 */
public record RaceQuery(
    Set<Verdict> verdicts,
    TriageState triageState,
    String classPrefix,
    String text,
    RaceSort sort,
    boolean descending,
    int offset,
    int limit) {
  public static final int DEFAULT_LIMIT = 50;
  public static final int MAX_LIMIT = 1_000;

  public RaceQuery {
    verdicts = verdicts == null || verdicts.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(verdicts));
    classPrefix = blankToNull(classPrefix);
    text = blankToNull(text);
    sort = sort == null ? RaceSort.SEVERITY : sort;
    if (offset < 0) {
      throw new IllegalArgumentException("offset must be >= 0, was " + offset);
    }
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be in 1.." + MAX_LIMIT + ", was " + limit);
    }
  }

  /** Every race, most severe first, first page. */
  public static RaceQuery all() {
    return new RaceQuery(Set.of(), null, null, null, RaceSort.SEVERITY, false, 0, DEFAULT_LIMIT);
  }

  public RaceQuery withVerdicts(Set<Verdict> only) {
    return new RaceQuery(only, triageState, classPrefix, text, sort, descending, offset, limit);
  }

  public RaceQuery withTriageState(TriageState state) {
    return new RaceQuery(verdicts, state, classPrefix, text, sort, descending, offset, limit);
  }

  public RaceQuery withClassPrefix(String prefix) {
    return new RaceQuery(verdicts, triageState, prefix, text, sort, descending, offset, limit);
  }

  public RaceQuery withText(String search) {
    return new RaceQuery(verdicts, triageState, classPrefix, search, sort, descending, offset, limit);
  }

  /** {@code descending} reverses the natural order of {@code by} (severity: most severe first). */
  public RaceQuery sortedBy(RaceSort by, boolean reversed) {
    return new RaceQuery(verdicts, triageState, classPrefix, text, by, reversed, offset, limit);
  }

  public RaceQuery page(int from, int size) {
    return new RaceQuery(verdicts, triageState, classPrefix, text, sort, descending, from, size);
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }
}
