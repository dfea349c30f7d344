package dev.racetriage.runner.trial;

/**
 * The runs of one test with one field under trial, one after another (the heuristic and seed change per run). An
 * implementation may keep a JVM between runs ({@link ServedTrialSession}); {@link #close} ends whatever it keeps.
 */
public interface TrialSession extends AutoCloseable {
  TrialOutcome run(TrialSpec spec) throws InterruptedException;

  /** Test JVMs this session started so far. */
  int jvmsStarted();

  /** Why the session stopped reusing a JVM for this pair (null: it did not, or never tried). */
  default String fallbackReason() {
    return null;
  }

  @Override
  void close();

  /** Opens sessions: one per (field, test) pair the scheduler works on. */
  interface Factory {
    TrialSession open(String fieldKey, String testId);
  }

  /** Sessions that run every trial through {@code executor} (a fresh JVM per run, or a table in unit tests). */
  static Factory perRun(TrialExecutor executor) {
    return (field, test) -> new TrialSession() {
      private int runs;

      @Override
      public TrialOutcome run(TrialSpec spec) throws InterruptedException {
        runs++;
        return executor.run(spec);
      }

      @Override
      public int jvmsStarted() {
        return runs;
      }

      @Override
      public void close() {}
    };
  }
}
