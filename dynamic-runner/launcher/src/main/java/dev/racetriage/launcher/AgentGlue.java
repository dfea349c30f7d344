package dev.racetriage.launcher;

import dev.racetriage.agent.runtime.DetectRuntime;
import dev.racetriage.agent.runtime.Hooks;

/**
 * Tells the agent, when one runs in this JVM, which test is running, so each race names the tests during which it
 * happened and the runner replays only those. Without an agent (the baseline) it does nothing.
 */
final class AgentGlue {
  private AgentGlue() {}

  static void testStarted(String testName) {
    DetectRuntime runtime = Hooks.installed();
    if (runtime != null) {
      runtime.aggregator().testStarted(testName);
    }
  }

  /**
   * Has the agent write its report now (the JVM is about to halt, so its shutdown hook will not run). Called
   * reflectively: an agent without {@code Hooks.flushReport()} writes nothing here, and no agent at all is fine too.
   */
  static void flushReport() {
    try {
      Hooks.class.getMethod("flushReport").invoke(null);
    } catch (NoSuchMethodException | LinkageError e) {
      // this agent cannot flush early; its report is lost with the JVM
    } catch (ReflectiveOperationException | RuntimeException e) {
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
