package dev.racetriage.runner.trial;

/** Runs one trial to completion. The real one forks a JVM with the agent in jumble mode ({@link JvmTrialExecutor}). */
public interface TrialExecutor {
  TrialOutcome run(TrialSpec spec) throws InterruptedException;
}
