package dev.racetriage.runner.trial;

/**
 * Sequential early stopping for one (field, test, heuristic): run until the evidence is decisive, at most
 * {@code maxRuns} times.
 *
 * <ul>
 *   <li>an adversarial heuristic stops after {@code failuresToConvict} failures that were served stale values (the
 *       race is destructive under it; more runs only refine the rate);</li>
 *   <li>it also stops after {@code unexercisedAfter} runs in which no stale value was ever served: the test does not
 *       exercise the race under this heuristic, and more seeds of the same schedule rarely change that;</li>
 *   <li>the {@code sc} control stops at its first failure: the test fails without stale values, so it is flaky.</li>
 * </ul>
 */
public record StoppingRule(int maxRuns, int failuresToConvict, int unexercisedAfter) {

  public static StoppingRule standard(int maxRuns) {
    return new StoppingRule(maxRuns, 3, Math.min(maxRuns, 5));
  }

  /** Whether to stop, given the tally so far. */
  public boolean done(String heuristic, Tally tally) {
    if (tally.runs() >= maxRuns) return true;
    if ("sc".equals(heuristic)) return tally.failures() > 0;
    if (tally.explainedFailures() >= failuresToConvict) return true;
    return tally.runs() >= unexercisedAfter && tally.staleReads() == 0;
  }

  /** Running counts for one (field, test, heuristic). */
  public record Tally(int runs, int failures, int explainedFailures, long staleReads) {
    public static final Tally EMPTY = new Tally(0, 0, 0, 0);

    public Tally plus(TrialOutcome outcome) {
      boolean explained = outcome.failed() && outcome.staleReads() > 0;
      return new Tally(runs + 1, failures + (outcome.failed() ? 1 : 0), explainedFailures + (explained ? 1 : 0),
          staleReads + outcome.staleReads());
    }
  }
}
