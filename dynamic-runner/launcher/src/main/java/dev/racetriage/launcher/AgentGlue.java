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

  static void testFinished() {
    DetectRuntime runtime = Hooks.installed();
    if (runtime != null) {
      runtime.aggregator().testFinished();
    }
  }
}
