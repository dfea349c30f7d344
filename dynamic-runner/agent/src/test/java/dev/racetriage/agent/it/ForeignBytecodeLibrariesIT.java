package dev.racetriage.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Programs that bring their own bytecode machinery: plain org.ow2.asm, and Mockito's inline mock maker (ByteBuddy
 * retransforming classes the agent has instrumented). Both must work under the agent, without internal errors.
 */
class ForeignBytecodeLibrariesIT {

  @Test
  void ownAsmAndMockitoInlineMocksWorkUnderTheAgent() throws Exception {
    AgentJvm.Result result = AgentJvm.run("foreign-bytecode", "mode=detect", AgentJvm.TEST_CLASSPATH,
        "dev.racetriage.fixtures.FixtureMain", "--repeat", "2",
        "dev.racetriage.fixtures.foreign.OwnAsmProgramOk", "dev.racetriage.fixtures.foreign.MockitoInlineMockingOk");
    assertEquals(0, result.exitCode(), result.describe());
    assertTrue(result.stdout().contains("ok dev.racetriage.fixtures.foreign.OwnAsmProgramOk"), result.describe());
    assertTrue(result.stdout().contains("ok dev.racetriage.fixtures.foreign.MockitoInlineMockingOk"),
        result.describe());
    assertEquals("ok", result.report().status());
    assertEquals(Set.of(), result.report().racyFields(), result.describe());
    assertEquals(0, result.report().summaryNumber("internalErrors"), result.report().summary());
  }
}
