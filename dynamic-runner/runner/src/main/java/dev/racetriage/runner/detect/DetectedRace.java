package dev.racetriage.runner.detect;

import java.util.List;

/**
 * One raced field as the agent reported it: counts by kind, the first race in full (both accesses), the distinct
 * site pairs, the tests that were running when it raced, and for an array key ({@code pkg.Cls.slots[]}) the distinct
 * element indices that raced (those of WR races first; empty for a field or an older agent's report).
 * {@code predicted}: only the agent's predictive analysis ({@code --predict}, WCP) found it — happens-before ordered
 * the accesses in the runs observed, another schedule races them — and {@code witness} names the lock order to flip.
 */
public record DetectedRace(
    String fieldKey, long count, long wr, long ww, Access current, Access previous, List<SitePair> sitePairs, List<String> tests,
    List<Integer> indices, boolean predicted, String witness) {

  public DetectedRace {
    sitePairs = List.copyOf(sitePairs);
    tests = List.copyOf(tests);
    indices = List.copyOf(indices);
  }

  /** Observed (not only predicted). */
  public DetectedRace(
      String fieldKey, long count, long wr, long ww, Access current, Access previous, List<SitePair> sitePairs, List<String> tests,
      List<Integer> indices) {
    this(fieldKey, count, wr, ww, current, previous, sitePairs, tests, indices, false, null);
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
    // predicted while no run observed it (happens-before ordered the accesses in every run that saw it)
    return new DetectedRace(fieldKey, count + other.count, wr + other.wr, ww + other.ww, current, previous, pairs,
        List.copyOf(allTests), List.copyOf(allIndices), predicted && other.predicted,
        witness != null ? witness : other.witness);
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
