package dev.racetriage.runner.triage;

/** Where a triage run reports what it is doing; the command line draws it as a bar or as plain lines. */
public interface TriageProgress {
  /** A new phase starts ("build", "baseline", "detect", "trials", "store"). */
  void phase(String name, String detail);

  /** Progress inside the phase: {@code done} of {@code total} units. */
  void step(int done, int total, String detail);

  static TriageProgress silent() {
    return new TriageProgress() {
      @Override
      public void phase(String name, String detail) {}

      @Override
      public void step(int done, int total, String detail) {}
    };
  }
}
