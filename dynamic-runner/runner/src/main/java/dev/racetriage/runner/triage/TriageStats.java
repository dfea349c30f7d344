package dev.racetriage.runner.triage;

import dev.racetriage.runner.detect.DetectionReport;
import java.util.List;

/** Where the time of a triage run went, and what the agent could not instrument. */
public record TriageStats(
    long buildMillis,
    long baselineMillis,
    long detectMillis,
    int trials,
    long trialMillis,
    long elapsedMillis,
    int tests,
    List<DetectionReport.SkippedClass> uninstrumentedClasses) {
  public TriageStats {
    uninstrumentedClasses = List.copyOf(uninstrumentedClasses);
  }
}
