package dev.racetriage.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A stack overflow at one of the agent's hook calls must not change what the program does: every round of the
 * fixture ends as it does without the agent (before the monitor hooks were guarded and the agent's own locks released
 * without a call, it died of an IllegalMonitorStateException or hung, in every one of several runs).
 */
class DeepStacksIT {

  @Test
  void aStackOverflowInsideSynchronizedCodeEndsAsWithoutTheAgent() throws Exception {
    for (String mode : new String[] {"mode=detect", "mode=jumble;field="
        + "dev.racetriage.fixtures.failure.StackOverflowInSynchronizedProgram.counter;heuristic=oldest"}) {
      AgentJvm.Result result = AgentJvm.run("stack-overflow-" + mode.substring(5, 11), mode, AgentJvm.TEST_CLASSPATH,
          "dev.racetriage.fixtures.failure.StackOverflowInSynchronizedProgram", "100");
      assertEquals(0, result.exitCode(), result.describe());
      assertTrue(result.stdout().contains("rounds 100"), result.describe());
      assertEquals("ok", result.report().status(), result.report().lines().toString());
    }
  }
}
