package dev.racetriage.store.races;

import dev.racetriage.store.FieldKey;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A race as the detection run reports it: the field, the kinds seen (WR, WW), the accesses involved and the tests
 * (as {@code pkg.TestClass#method}) during which it happened. Recording it again merges kinds, accesses and tests.
 */
public record Race(FieldKey field, Set<RaceKind> kinds, List<AccessSite> accesses, Set<String> tests) {
  public Race {
    Objects.requireNonNull(field, "field");
    if (kinds == null || kinds.isEmpty()) {
      throw new IllegalArgumentException("a race on " + field + " needs at least one kind (WR or WW)");
    }
    kinds = Set.copyOf(kinds);
    accesses = List.copyOf(accesses);
    tests = Set.copyOf(tests);
  }
}
