package dev.racetriage.runner.triage;

import dev.racetriage.runner.detect.DetectionReport;
import java.util.List;

/**
 * Where the time of a triage run went, and what the agent could not instrument. {@code trials} counts trial runs,
 * {@code trialJvms} the JVMs they ran in (fewer when tests are repeated inside one JVM). {@code detectRuns}: runs of
 * the tests under detection (per module, in one JVM); {@code lateRaces}: races only a repeated detection run found;
 * {@code untrackedArrays}: arrays too long for the agent to check, whose elements' races cannot be seen;
 * {@code predictionStoppedAfterEvents}: the predictive analysis spent its budget after this many events in some
 * detection JVM (0: it covered every run, or was off), so the later part of that run had no prediction.
 */
public record TriageStats(
    long buildMillis,
    long baselineMillis,
    long detectMillis,
    int trials,
    int trialJvms,
    long trialMillis,
    long elapsedMillis,
    int tests,
    List<DetectionReport.SkippedClass> uninstrumentedClasses,
    int detectRuns,
    List<String> lateRaces,
    List<DetectionReport.UntrackedArray> untrackedArrays,
    long predictionStoppedAfterEvents) {
  public TriageStats {
    untrackedArrays = List.copyOf(untrackedArrays);
    uninstrumentedClasses = List.copyOf(uninstrumentedClasses);
    lateRaces = List.copyOf(lateRaces);
  }
}
