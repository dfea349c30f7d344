package dev.racetriage.runner.trial;

/** Opens {@link ServedTrialSession}s: each (field, test) pair repeated in a reused JVM where the test allows it. */
public final class ServedTrials implements TrialSession.Factory {
  private final JvmTrialExecutor executor;

  public ServedTrials(JvmTrialExecutor executor) {
    this.executor = executor;
  }

  @Override
  public TrialSession open(String fieldKey, String testId) {
    return new ServedTrialSession(executor, fieldKey, testId);
  }
}
