package dev.racetriage.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Programs with one known race each: the agent reports exactly that field key. */
class RacyProgramsIT {

  @Test
  void plainElementsOfAVolatileArrayReferenceAreReportedUnderTheArraysField() throws Exception {
    String fixture = "dev.racetriage.fixtures.racy.VolatileArrayElementsBad";
    AgentJvm.Result result = AgentJvm.run("volatile-array", "mode=detect", AgentJvm.TEST_CLASSPATH,
        "dev.racetriage.fixtures.FixtureMain", fixture);
    assertEquals(0, result.exitCode(), result.describe());
    assertEquals("ok", result.report().status());
    assertEquals(Set.of(fixture + ".cells[]"), result.report().racyFields(), result.describe());
  }

  @Test
  void aCounterIncrementedByPoolTasksWithoutALockIsReported() throws Exception {
    String fixture = "dev.racetriage.fixtures.racy.LostUpdateCounterBad";
    AgentJvm.Result result = AgentJvm.run("lost-update", "mode=detect", AgentJvm.TEST_CLASSPATH,
        "dev.racetriage.fixtures.FixtureMain", fixture);
    assertEquals(0, result.exitCode(), result.describe());
    assertEquals(Set.of(fixture + ".hits"), result.report().racyFields(), result.describe());
  }
}
