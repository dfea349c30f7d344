package dev.racetriage.runner.trial;

/**
 * What one trial did: pass, fail (assertion or exception) or timeout (a hang: killed at its deadline), how long it
 * took, how many reads of the jumbled field there were and how many returned a stale value, the failure's text, and
 * the command line that replays it.
 */
public record TrialOutcome(
    TrialSpec spec, Result result, long millis, long reads, long staleReads, String failure, String replayCommand) {

  public enum Result { PASS, FAIL, TIMEOUT }

  public boolean failed() {
    return result != Result.PASS;
  }
}
