package dev.racetriage.runner.trial;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Fresh JVMs when repeating the test in one JVM cannot exercise the race. State that survives a run — a static flag
 * that the first run sets for good, a lazily created singleton, a cache — makes every later run of the test in that
 * JVM write the value the field already holds, so no stale value differs and the race looks unexercised (the
 * issue's {@code static boolean verbose}: "no stale value was ever visible to 1,200,000 reads" in one JVM, 4,810
 * stale values served with a JVM per run). A field whose adversarial runs served no stale value and failed nothing,
 * with some of those runs in a reused JVM, is tried again with one run per fresh JVM before it is reported; the
 * retry's runs are numbered from {@link #FIRST_RUN} (seeds of their own) and the evidence says which mode served the
 * stale values ({@link #exercisedIn}).
 */
public final class FreshJvmRetry {
  /** The retry's first run number: its seeds never repeat the reused JVM's. */
  public static final int FIRST_RUN = 1000;

  private FreshJvmRetry() {}

  /** The cells of the fields that repetition in one JVM left unexercised, numbered for the retry. */
  public static List<TrialCell> cellsToRetry(List<TrialCell> cells, List<TrialOutcome> outcomes) {
    Map<String, Boolean> candidate = new HashMap<>();
    for (TrialOutcome o : outcomes) {
      if (o.isControl()) continue;
      String field = o.spec().fieldKey();
      boolean unexercised = o.staleReads() == 0 && !o.failed() && !o.timedOut();
      candidate.merge(field, unexercised, Boolean::logicalAnd);
    }
    Set<String> reused = new HashSet<>();
    Set<String> read = new HashSet<>();
    Set<String> startedFresh = new HashSet<>();
    for (TrialOutcome o : outcomes) {
      if (!o.isControl() && !o.freshJvm()) reused.add(o.spec().fieldKey());
      if (o.reads() > 0) read.add(o.spec().fieldKey());
      if (o.warmUp() || o.freshJvm()) startedFresh.add(o.spec().fieldKey());
    }
    List<TrialCell> retry = new ArrayList<>();
    for (TrialCell c : cells) {
      // Never read, not even by a run that started from a JVM's fresh state (each JVM's first run, the control
      // included): a fresh JVM would not read it either — until the field's first read every heuristic behaves as sc
      // — so the retry could only repeat that (the corpus's bulk copies, which the agent does not see as reads).
      boolean blindFromTheStart = !read.contains(c.fieldKey()) && startedFresh.contains(c.fieldKey());
      if (candidate.getOrDefault(c.fieldKey(), false) && reused.contains(c.fieldKey()) && !blindFromTheStart) {
        retry.add(c.numberedFrom(FIRST_RUN));
      }
    }
    return retry;
  }

  /**
   * Which mode served the field's stale values ({@code exercisedIn} fact): {@code "a reused JVM"}, {@code "fresh JVMs
   * (one run each)"}, both, or null when none was served.
   */
  public static String exercisedIn(List<TrialOutcome> outcomes) {
    long reused = 0;
    long fresh = 0;
    boolean anyReused = false;
    boolean anyFresh = false;
    for (TrialOutcome o : outcomes) {
      if (o.isControl()) continue;
      if (o.freshJvm()) {
        fresh += o.staleReads();
        anyFresh = true;
      } else {
        reused += o.staleReads();
        anyReused = true;
      }
    }
    boolean retried = anyReused && anyFresh;
    if (reused == 0 && fresh == 0) {
      return retried ? "neither a reused JVM nor fresh JVMs (one run each) served a stale value" : null;
    }
    if (reused == 0) {
      return retried ? "fresh JVMs (one run each): repeating the test in one JVM served no stale value"
          : "fresh JVMs (one run each)";
    }
    return fresh == 0 ? "a reused JVM (the test repeated in one JVM)"
        : "a reused JVM (" + reused + " stale values) and fresh JVMs (" + fresh + ")";
  }
}
