package dev.racetriage.runner.detect;

import java.util.List;

/**
 * One raced field as the agent reported it: counts by kind, the first race in full (both accesses), the distinct
 * site pairs, the tests that were running when it raced, and for an array key ({@code pkg.Cls.slots[]}) the distinct
 * element indices that raced (those of WR races first; empty for a field or an older agent's report).
 */
public record DetectedRace(
    String fieldKey, long count, long wr, long ww, Access current, Access previous, List<SitePair> sitePairs, List<String> tests,
    List<Integer> indices) {

  public DetectedRace {
    sitePairs = List.copyOf(sitePairs);
    tests = List.copyOf(tests);
    indices = List.copyOf(indices);
  }

  /** Without racing indices (a field). */
  public DetectedRace(
      String fieldKey, long count, long wr, long ww, Access current, Access previous, List<SitePair> sitePairs, List<String> tests) {
    this(fieldKey, count, wr, ww, current, previous, sitePairs, tests, List.of());
  }

  /** One access: the thread, where it was, and (for the access that found the race) a few stack frames. */
  public record Access(String thread, String className, String method, String file, int line, List<String> stack) {
    public Access {
      stack = List.copyOf(stack);
    }
  }

  /** A distinct pair of racing sites; {@code current} found the race against the earlier write {@code previous}. */
  public record SitePair(String kind, Access current, Access previous) {}
}
