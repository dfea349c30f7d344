package dev.racetriage.runner.trial;

/**
 * What one trial did: pass, fail (assertion or exception) or timeout (a hang: killed at its deadline), how long it
 * took, how many reads of the jumbled field there were and how many returned a stale value, the failure's text, and
 * the command line that replays it. {@code warmUp}: the first run in a reused JVM, which runs on cold code; its
 * duration is left out of timing comparisons (its outcome and stale reads count like any other run's).
 */
public record TrialOutcome(TrialSpec spec, Result result, long millis, long reads, long staleReads, String failure,
                           String replayCommand, boolean warmUp) {

  public enum Result { PASS, FAIL, TIMEOUT }

  /** A trial in a JVM of its own (no warm-up distinction: every such run starts cold). */
  public TrialOutcome(TrialSpec spec, Result result, long millis, long reads, long staleReads, String failure,
                      String replayCommand) {
    this(spec, result, millis, reads, staleReads, failure, replayCommand, false);
  }

  public boolean failed() {
    return result != Result.PASS;
  }
}
