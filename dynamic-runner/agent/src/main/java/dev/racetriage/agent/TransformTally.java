package dev.racetriage.agent;

import dev.racetriage.agent.detect.RunSummary;
import dev.racetriage.agent.instrument.ClassKind;
import dev.racetriage.agent.instrument.TransformListener;
import java.io.PrintStream;

/**
 * Keeps the run summary's account of the transformer's work: application classes instrumented, JDK classes
 * instrumented as trusted, and classes left alone — each of those announced on stderr at once, so a class the agent
 * cannot check is never silent.
 */
final class TransformTally implements TransformListener {
  private final RunSummary summary;
  private final PrintStream err;
  private long trustedJdkClasses;

  TransformTally(RunSummary summary, PrintStream err) {
    this.summary = summary;
    this.err = err;
  }

  @Override
  public void instrumented(String className, ClassKind kind) {
    if (kind == ClassKind.APPLICATION) {
      summary.classInstrumented();
    } else {
      synchronized (this) {
        trustedJdkClasses++;
      }
    }
  }

  @Override
  public void skipped(String className, String reason) {
    summary.classSkipped(className, reason);
    err.println("racetriage agent: WARNING: " + className + " left uninstrumented: " + reason);
  }

  synchronized long trustedJdkClasses() {
    return trustedJdkClasses;
  }
}
