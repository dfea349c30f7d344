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

  /**
   * This race and {@code other} (the same field, seen by another module's or another JVM's run) as one: the counts
   * added, this one's first race kept, the site pairs, tests and indices of both.
   */
  public DetectedRace mergedWith(DetectedRace other) {
    List<SitePair> pairs = new java.util.ArrayList<>(sitePairs);
    other.sitePairs.stream().filter(p -> !pairs.contains(p)).forEach(pairs::add);
    java.util.Set<String> allTests = new java.util.LinkedHashSet<>(tests);
    allTests.addAll(other.tests);
    java.util.Set<Integer> allIndices = new java.util.LinkedHashSet<>(indices);
    allIndices.addAll(other.indices);
    return new DetectedRace(fieldKey, count + other.count, wr + other.wr, ww + other.ww, current, previous, pairs,
        List.copyOf(allTests), List.copyOf(allIndices));
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
