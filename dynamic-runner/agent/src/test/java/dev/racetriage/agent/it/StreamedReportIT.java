package dev.racetriage.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The detect report is written while the program runs: a JVM killed at a time limit (SIGKILL, no shutdown hook)
 * still leaves the races the agent had found, the launcher can have them written before a kill, and a JVM that exits
 * (normally or on SIGTERM) completes the report with every field's final line and one summary.
 */
class StreamedReportIT {
  private static final String WAITS = "dev.racetriage.fixtures.racy.RacesThenWaitsForeverBad";
  private static final String HITS = "dev.racetriage.fixtures.racy.LostUpdateCounterBad.hits";
  private static final String HITS_LINE = "{\"type\":\"race\",\"field\":\"" + HITS + "\",";

  @Test
  void aKilledJvmLeavesTheRacesItFound() throws Exception {
    AgentJvm.Running jvm = AgentJvm.start("streamed-killed", List.of(), "mode=detect;flush=100",
        AgentJvm.TEST_CLASSPATH, WAITS);
    jvm.awaitReportLine(HITS_LINE);
    jvm.process().destroyForcibly().waitFor();

    AgentReport report = AgentReport.read(jvm.report());
    assertFalse(report.complete(), report.lines().toString());
    assertEquals("running", report.status(), "the status line written at start, never completed");
    assertEquals(Set.of(HITS), report.racyFields(), "the flusher's own work is never reported");
    assertTrue(report.count("{\"type\":\"progress\",\"classesInstrumented\":") > 0, report.lines().toString());
    assertTrue(AgentReport.number(report.lastLine(HITS), "count") > 0, report.lastLine(HITS));
  }

  /** Without a flusher (flush=0), only the launcher's call writes the race before the kill. */
  @Test
  void theLaunchersFlushWritesTheRacesBeforeAKill() throws Exception {
    AgentJvm.Running jvm = AgentJvm.start("streamed-flush-now", List.of(), "mode=detect;flush=0",
        AgentJvm.TEST_CLASSPATH, WAITS, "flush");
    jvm.awaitOutput("raced");
    jvm.process().destroyForcibly().waitFor();

    AgentJvm.Result result = jvm.result();
    assertTrue(result.stdout().contains("flushed true"), result.describe());
    AgentReport report = result.report();
    assertFalse(report.complete(), report.lines().toString());
    assertEquals(Set.of(HITS), report.racyFields(), result.describe());
    assertEquals(1, report.count("{\"type\":\"progress\""), "one flush, one progress line: " + report.lines());
  }

  @Test
  void aTerminatedJvmCompletesItsReportOnce() throws Exception {
    AgentJvm.Running jvm = AgentJvm.start("streamed-terminated", List.of(), "mode=detect;flush=100",
        AgentJvm.TEST_CLASSPATH, WAITS);
    jvm.awaitReportLine(HITS_LINE);
    jvm.process().destroy(); // SIGTERM: the shutdown hooks run
    jvm.process().waitFor();

    AgentReport report = AgentReport.read(jvm.report());
    assertEquals("ok", report.status(), report.lines().toString());
    assertCompleteOnce(report);
    assertEquals(Set.of(HITS), report.racyFields());
  }

  /**
   * A normal exit after flushes: the status comes first, the summary once and last, and the fields' last lines add
   * up to it (every race report is counted in exactly one field's line, so a stale last line would show).
   */
  @Test
  void aNormalExitEndsWithEveryFieldsFinalLineAndOneSummary() throws Exception {
    String element = "dev.racetriage.fixtures.racy.RacyArrayElementBad";
    AgentJvm.Result result = AgentJvm.run("streamed-exit", "mode=detect;flush=100", AgentJvm.TEST_CLASSPATH,
        "dev.racetriage.fixtures.FixtureMain", "--repeat", "20", element,
        "dev.racetriage.fixtures.racy.LostUpdateCounterBad", "dev.racetriage.fixtures.racefree.ExecutorHandoffOk");
    assertEquals(0, result.exitCode(), result.describe());
    AgentReport report = result.report();
    assertEquals("ok", report.status(), result.describe());
    assertTrue(report.lines().get(0).startsWith("{\"type\":\"status\",\"status\":\"ok\""), report.lines().get(0));
    assertCompleteOnce(report);
    assertEquals(Set.of(element + ".slots[]", element + ".lastWorker", HITS), report.racyFields(), result.describe());
    assertEquals(List.of(5), report.indices(element + ".slots[]"));
  }

  private static void assertCompleteOnce(AgentReport report) {
    assertTrue(report.complete(), report.lines().toString());
    assertEquals(1, report.count("{\"type\":\"summary\""), report.lines().toString());
    assertTrue(report.lines().get(report.lines().size() - 1).startsWith("{\"type\":\"summary\""));
    long counted = 0;
    for (String field : report.racyFields()) {
      counted += AgentReport.number(report.lastLine(field), "count");
    }
    assertEquals(report.summaryNumber("raceReports"), counted, report.lines().toString());
    assertEquals(report.summaryNumber("races"), report.racyFields().size());
  }
}
