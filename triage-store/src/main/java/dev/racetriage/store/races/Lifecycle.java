package dev.racetriage.store.races;

import java.util.Locale;

/**
 * Where a race is in its life, independent of its verdict and of the team's mark: seen by the latest detection that
 * could see it ({@code ACTIVE}), no longer seen although every test that exercised it ran and passed ({@code FIXED}),
 * or seen again after it was fixed ({@code REGRESSED}, open until it is fixed again).
 */
public enum Lifecycle {
  ACTIVE,
  FIXED,
  REGRESSED;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
