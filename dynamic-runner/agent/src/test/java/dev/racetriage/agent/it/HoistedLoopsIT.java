package dev.racetriage.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Counted loops whose element checks the agent moves to the loop exits (one range check per array): races inside
 * them are still reported with the loop's site and the element index, race-free partitioned loops report nothing,
 * and a loop left by an exception reports no element it did not reach.
 */
class HoistedLoopsIT {
  private static final String PKG = "dev.racetriage.fixtures.loops.";

  @Test
  void partitionedArrayLoopsAndAParallelMatrixMultiplyReportNoRace() throws Exception {
    AgentJvm.Result result = run("loops-partitioned", "PartitionedArrayLoopsOk");
    assertEquals(List.of(), List.copyOf(result.report().racyFields()), result.describe());
    assertEquals(0, result.report().summaryNumber("internalErrors"), result.report().summary());
  }

  @Test
  void overlappingLoopsReportTheSharedIndexAtTheLoopsSite() throws Exception {
    String fixture = PKG + "OverlappingArrayLoopsBad";
    AgentJvm.Result result = run("loops-overlapping", "OverlappingArrayLoopsBad");
    String key = fixture + ".cells[]";
    assertEquals(Set.of(key), result.report().racyFields(), result.describe());
    assertEquals(List.of(7), result.report().indices(key), result.describe());
    String line = raceLine(result, key);
    assertTrue(Pattern.compile("\"current\":\\{\"thread\":\"[^\"]*\",\"class\":\"" + Pattern.quote(fixture)
        + "\",\"method\":\"fillSlice\",\"file\":\"OverlappingArrayLoopsBad.java\",\"line\":\\d+").matcher(line)
        .find(), line);
    assertTrue(line.contains("\"previous\":{\"thread\":"), line);
  }

  @Test
  void aLoopLeftByAnExceptionReportsOnlyElementsItRead() throws Exception {
    String key = PKG + "ExceptionInHoistedLoopBad.divisors[]";
    AgentJvm.Result result = run("loops-exception", "ExceptionInHoistedLoopBad");
    assertEquals(Set.of(key), result.report().racyFields(), result.describe());
    List<Integer> indices = result.report().indices(key);
    assertNotNull(indices);
    assertFalse(indices.isEmpty(), result.describe());
    assertTrue(Set.of(0, 1, 2, 3, 4, 5, 6).containsAll(indices), "never reached: " + indices);
  }

  private static AgentJvm.Result run(String name, String fixture) throws Exception {
    AgentJvm.Result result = AgentJvm.run(name, "mode=detect", AgentJvm.TEST_CLASSPATH,
        "dev.racetriage.fixtures.FixtureMain", PKG + fixture);
    assertEquals(0, result.exitCode(), result.describe());
    assertEquals("ok", result.report().status(), result.describe());
    return result;
  }

  private static String raceLine(AgentJvm.Result result, String key) {
    for (String line : result.report().lines()) {
      if (line.startsWith("{\"type\":\"race\",\"field\":\"" + key + "\"")) {
        return line;
      }
    }
    throw new AssertionError("no race line for " + key + ": " + result.describe());
  }
}
