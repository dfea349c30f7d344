package dev.racetriage.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What the agent cannot do is said out loud, and the program runs on regardless: classes it cannot instrument are
 * listed with the reason; a run that instrumented nothing, or was given invalid options, is an error.
 */
class LoudFailuresIT {

  @Test
  void aMethodTooLargeAfterInstrumentationLeavesItsClassAloneAndIsReported() throws Exception {
    AgentJvm.Result result = AgentJvm.run("huge-method", "mode=detect", AgentJvm.TEST_CLASSPATH,
        "dev.racetriage.fixtures.failure.HugeMethodProgram");
    assertEquals(0, result.exitCode(), result.describe());
    assertTrue(result.stdout().contains("sum 11000"), result.describe());
    assertTrue(result.report().summary().contains(
        "{\"class\":\"dev.racetriage.fixtures.failure.Huge\",\"reason\":\"method sum()I is larger than 64 KiB"),
        result.report().summary());
    assertTrue(result.stderr().contains("WARNING: dev.racetriage.fixtures.failure.Huge left uninstrumented"),
        result.stderr());
  }

  @Test
  void anArrayOverTheArraysBoundIsNamedNotSilentlyUnchecked() throws Exception {
    AgentJvm.Result result = AgentJvm.run("long-array", "mode=detect;arrays=1000", AgentJvm.TEST_CLASSPATH,
        "dev.racetriage.fixtures.failure.LongArrayProgram");
    assertEquals(0, result.exitCode(), result.describe());
    assertTrue(result.report().summary().contains("\"untrackedArrays\":[{\"array\":"
        + "\"dev.racetriage.fixtures.failure.LongArrayProgram.samples[]\",\"type\":\"double\",\"length\":5000,"
        + "\"count\":1}]"), result.report().summary());
    assertTrue(result.report().lines().get(0).contains("\"untrackedArrays\":1"), result.report().lines().get(0));
    assertTrue(result.report().racyFields().contains("dev.racetriage.fixtures.failure.LongArrayProgram.small[]"),
        result.report().racyFields().toString());
  }

  @Test
  void aClassFileNewerThanTheAgentsAsmIsReported() throws Exception {
    AgentJvm.Result result = AgentJvm.run("too-new", "mode=detect", AgentJvm.TEST_CLASSPATH,
        "dev.racetriage.fixtures.failure.TooNewClassFileProgram");
    assertEquals(0, result.exitCode(), result.describe());
    assertTrue(result.stdout().contains("counter 1"), result.describe());
    assertTrue(result.report().summary().contains("TooNewClassFileProgram$FromTheFuture\",\"reason\":"
        + "\"class-file version 80"), result.report().summary());
    assertEquals("ok", result.report().status());
  }

  @Test
  void aRunThatInstrumentedNothingIsAnError() throws Exception {
    AgentJvm.Result result = AgentJvm.run("nothing-instrumented", "mode=detect;exclude=dev.racetriage.fixtures.",
        AgentJvm.TEST_CLASSPATH, "dev.racetriage.fixtures.FixtureMain",
        "dev.racetriage.fixtures.racefree.JoinOk");
    assertEquals(0, result.exitCode(), "the program itself is unaffected: " + result.describe());
    assertEquals("error", result.report().status(), result.report().lines().toString());
    assertEquals(0, result.report().summaryNumber("classesInstrumented"));
    assertTrue(result.stderr().contains("ERROR: no application class was instrumented"), result.stderr());
  }

  @Test
  void invalidOptionsAreNamedAndTheProgramRunsUninstrumented() throws Exception {
    AgentJvm.Result result = AgentJvm.run("invalid-option", "mode=detect;outfile=x", AgentJvm.TEST_CLASSPATH,
        "dev.racetriage.fixtures.FixtureMain", "dev.racetriage.fixtures.racy.VolatileArrayElementsBad");
    assertEquals(0, result.exitCode(), result.describe());
    assertTrue(result.stdout().contains("ok dev.racetriage.fixtures.racy.VolatileArrayElementsBad"),
        result.describe());
    assertTrue(result.stderr().contains("unknown option 'outfile'"), result.stderr());
    assertEquals("error", result.report().status(), result.report().lines().toString());
    assertEquals(Set.of(), result.report().racyFields());
  }
}
