package dev.racetriage.runner.trial;

import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Sessions that first look for each run among the trials an interrupted triage already finished (same
 * {@link TrialInputs}: same class files, agent, field, test, heuristic and seed) and only run what is missing. The
 * scheduler sees a reused trial like a new one, so the stopping rule and the verdict count it; {@link #reused} tells
 * them apart so that the caller does not store them twice.
 */
public final class ReusedTrials {
  private final Function<TrialSpec, Optional<TrialOutcome>> finished;
  // by identity: a record's equality would also match a run that happened to give the same figures
  private final Set<TrialOutcome> reused = java.util.Collections.synchronizedSet(
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));

  /** @param finished the stored trial of a spec, if an earlier run of the same inputs finished it */
  public ReusedTrials(Function<TrialSpec, Optional<TrialOutcome>> finished) {
    this.finished = finished;
  }

  /** Whether this outcome came from the store rather than from a run. */
  public boolean reused(TrialOutcome outcome) {
    return reused.contains(outcome);
  }

  public int reusedCount() {
    return reused.size();
  }

  /** Sessions that take each run from the finished trials when there is one, else from {@code inner}. */
  public TrialSession.Factory around(TrialSession.Factory inner) {
    return (fieldKey, testId) -> new TrialSession() {
      private TrialSession session; // opened only when a run is missing: a fully reused pair starts no JVM

      @Override
      public TrialOutcome run(TrialSpec spec) throws InterruptedException {
        Optional<TrialOutcome> done = finished.apply(spec);
        if (done.isPresent()) {
          reused.add(done.get());
          return done.get();
        }
        if (session == null) session = inner.open(fieldKey, testId);
        return session.run(spec);
      }

      @Override
      public int jvmsStarted() {
        return session == null ? 0 : session.jvmsStarted();
      }

      @Override
      public String fallbackReason() {
        return session == null ? null : session.fallbackReason();
      }

      @Override
      public void close() {
        if (session != null) session.close();
      }
    };
  }
}
