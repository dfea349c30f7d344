package dev.racetriage.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.detect.RaceAggregator;
import dev.racetriage.agent.detect.RunSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunReportTest {

  @Test
  void aRunThatInstrumentedNothingIsAnError() {
    RunReport.Status status = RunReport.statusOf(new RunSummary(), null);
    assertFalse(status.ok());
    assertTrue(status.message().startsWith("no application class was instrumented"), status.message());
  }

  @Test
  void aStartErrorWinsAndAnInstrumentedRunIsOk() {
    RunSummary summary = new RunSummary();
    summary.classInstrumented();
    assertTrue(RunReport.statusOf(summary, null).ok());
    assertEquals("invalid agent options: x", RunReport.statusOf(summary, "invalid agent options: x").message());
  }

  @Test
  void theFileStartsWithTheStatusAndEndsWithTheSummary(@TempDir Path dir) throws Exception {
    RunSummary summary = new RunSummary();
    summary.classInstrumented();
    summary.classSkipped("pkg.Big", "method m()V is larger than 64 KiB after instrumentation");
    Path file = dir.resolve("sub/report.jsonl");
    RunReport.write(file, RunReport.statusOf(summary, null), 12, 1, new RaceAggregator(), summary);
    List<String> lines = Files.readAllLines(file);
    assertEquals("{\"type\":\"status\",\"status\":\"ok\",\"mode\":\"detect\",\"message\":null,\"jdkClassesTrusted\":12,"
        + "\"untrackedArrays\":1}",
        lines.get(0));
    assertTrue(lines.get(lines.size() - 1).startsWith("{\"type\":\"summary\",\"classesInstrumented\":1,"
        + "\"classesSkipped\":[{\"class\":\"pkg.Big\""), lines.toString());
  }
}
