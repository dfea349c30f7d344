package dev.racetriage.launcher;

import dev.racetriage.agent.runtime.DetectRuntime;
import dev.racetriage.agent.runtime.Hooks;
import dev.racetriage.agent.runtime.ReportStream;

/**
 * Tells the agent, when one runs in this JVM, which test is running, so each race names the tests during which it
 * happened and the runner replays only those. Without an agent (the baseline) it does nothing.
 */
final class AgentGlue {
  private AgentGlue() {}

  static void testStarted(String testName) {
    DetectRuntime runtime = Hooks.installed();
    if (runtime != null) {
      runtime.testStarted(testName); // races name it; the predictive analysis starts afresh
    }
  }

  /**
   * Has the agent write every race found so far to its streamed report and force it to disk (the JVM is about to
   * halt, so its shutdown hook will not run). Without a detect-mode agent it does nothing.
   */
  static void flushReport() {
    try {
      ReportStream.flushNow();
    } catch (LinkageError | RuntimeException e) {
      System.err.println("racetriage launcher: the agent could not write its report: " + e);
    }
  }

  static void testFinished() {
    DetectRuntime runtime = Hooks.installed();
    if (runtime != null) {
      runtime.aggregator().testFinished();
    }
  }
}
