package dev.racetriage.runner.trial;

/**
 * What one trial did: pass, fail (assertion or exception) or timeout (killed at its limit), how long it took, how
 * many reads of the jumbled field there were and how many returned a stale value, the failure's text, and the command
 * line that replays it. {@code warmUp}: the first run in a reused JVM, which runs on cold code; its duration is left
 * out of timing comparisons (its outcome and stale reads count like any other run's). {@code freshJvm}: the run had
 * a JVM of its own (no earlier run of the test in it), so no state of an earlier run could hide the race.
 *
 * <p>A {@code TIMEOUT} is never a failure ({@link #failed}): a run killed at its limit says nothing about the stale
 * values it was served (its report is lost with the JVM). Under {@code sc} it is the environment's noise and is run
 * again; under an adversarial heuristic it is QoS evidence (its duration is the limit it reached).
 */
public record TrialOutcome(TrialSpec spec, Result result, long millis, long reads, long staleReads, String failure,
                           String replayCommand, boolean warmUp, boolean freshJvm, Pair pair,
                           java.util.Set<String> sameChoices) {

  public TrialOutcome {
    sameChoices = sameChoices == null ? java.util.Set.of() : java.util.Set.copyOf(sameChoices);
  }

  /** An outcome no other heuristic is known to share ({@link #sameChoices} empty). */
  public TrialOutcome(TrialSpec spec, Result result, long millis, long reads, long staleReads, String failure,
                      String replayCommand, boolean warmUp, boolean freshJvm, Pair pair) {
    this(spec, result, millis, reads, staleReads, failure, replayCommand, warmUp, freshJvm, pair, null);
  }

  /**
   * This outcome with the heuristics that would have made this very run ({@link SharedRuns}): the agent reported
   * that each of them would have served every read with a choice as this run's heuristic did.
   */
  public TrialOutcome withSameChoices(java.util.Set<String> heuristics) {
    return new TrialOutcome(spec, result, millis, reads, staleReads, failure, replayCommand, warmUp, freshJvm, pair,
        heuristics);
  }

  public enum Result { PASS, FAIL, TIMEOUT }

  /**
   * A run of a confirmation pair ({@link dev.racetriage.runner.verdict.PairedSlowdown}): the {@code index}-th pair of
   * {@code sc} and {@code heuristic} run back to back in one (field, test) unit; both runs carry the same pair.
   */
  public record Pair(String heuristic, int index) {}

  /** An outcome outside any confirmation pair. */
  public TrialOutcome(TrialSpec spec, Result result, long millis, long reads, long staleReads, String failure,
                      String replayCommand, boolean warmUp, boolean freshJvm) {
    this(spec, result, millis, reads, staleReads, failure, replayCommand, warmUp, freshJvm, null);
  }

  /** This outcome as a run of confirmation pair {@code pair}. */
  public TrialOutcome paired(Pair pair) {
    return new TrialOutcome(spec, result, millis, reads, staleReads, failure, replayCommand, warmUp, freshJvm, pair,
        sameChoices);
  }

  /** A run in a reused JVM (the trial server). */
  public TrialOutcome(TrialSpec spec, Result result, long millis, long reads, long staleReads, String failure,
                      String replayCommand, boolean warmUp) {
    this(spec, result, millis, reads, staleReads, failure, replayCommand, warmUp, false);
  }

  /** A trial in a JVM of its own (no warm-up distinction: every such run starts cold). */
  public TrialOutcome(TrialSpec spec, Result result, long millis, long reads, long staleReads, String failure,
                      String replayCommand) {
    this(spec, result, millis, reads, staleReads, failure, replayCommand, false, true);
  }

  /** The test failed (an assertion, an exception, the JVM ended): not a timeout. */
  public boolean failed() {
    return result == Result.FAIL;
  }

  public boolean timedOut() {
    return result == Result.TIMEOUT;
  }

  public boolean isControl() {
    return "sc".equals(spec.heuristic());
  }
}
