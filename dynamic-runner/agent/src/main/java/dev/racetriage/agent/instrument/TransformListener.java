package dev.racetriage.agent.instrument;

/** Told what became of each class the transformer considered (the run summary and the verbose log listen). */
public interface TransformListener {
  void instrumented(String className, ClassKind kind);

  void skipped(String className, String reason);
}
