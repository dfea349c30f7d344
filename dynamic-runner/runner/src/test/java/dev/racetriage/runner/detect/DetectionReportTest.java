package dev.racetriage.runner.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.detect.Access;
import dev.racetriage.agent.detect.RaceAggregator;
import dev.racetriage.agent.detect.RaceKind;
import dev.racetriage.agent.detect.RaceReport;
import dev.racetriage.agent.detect.RaceReportWriter;
import dev.racetriage.agent.detect.RunSummary;
import dev.racetriage.agent.detect.Site;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads report files written by the agent's own writer, so the two sides cannot drift apart. */
class DetectionReportTest {
  @TempDir Path dir;

  @Test
  void readsWhatTheAgentWrites() throws Exception {
    RaceAggregator aggregator = new RaceAggregator();
    Site write = new Site("demo.Point", "<init>", "Point.java", 12);
    Site read = new Site("demo.Point", "slope", "Point.java", 30);
    StackTraceElement frame = new StackTraceElement("demo.Point", "slope", "Point.java", 30);
    aggregator.race(new RaceReport("demo.Point.x", RaceKind.WR,
        new Access("worker-2", read, List.of(frame)), new Access("worker-1", write, List.of())));
    aggregator.race(new RaceReport("demo.Point.x", RaceKind.WR,
        new Access("worker-2", read, List.of(frame)), new Access("worker-1", write, List.of())));
    RunSummary summary = new RunSummary();
    summary.classInstrumented();
    summary.classInstrumented();
    summary.classSkipped("demo.Huge", "method too large");
    Path file = dir.resolve("races.jsonl");
    try (Writer out = Files.newBufferedWriter(file)) {
      RaceReportWriter.write(out, aggregator.fields(), aggregator.totalReports(), summary);
    }

    DetectionReport report = DetectionReport.read(file);

    assertTrue(report.complete());
    assertEquals(2, report.classesInstrumented());
    assertEquals(List.of(new DetectionReport.SkippedClass("demo.Huge", "method too large")), report.skipped());
    assertEquals(1, report.races().size());
    DetectedRace race = report.races().get(0);
    assertEquals("demo.Point.x", race.fieldKey());
    assertEquals(2, race.count());
    assertEquals(2, race.wr());
    assertEquals(0, race.ww());
    assertEquals("worker-2", race.current().thread());
    assertEquals("slope", race.current().method());
    assertEquals(30, race.current().line());
    assertEquals(List.of(frame.toString()), race.current().stack());
    assertEquals("<init>", race.previous().method());
    assertEquals(1, race.sitePairs().size());
  }

  @Test
  void aReportWithoutItsSummaryIsIncomplete() throws Exception {
    Path file = dir.resolve("cut.jsonl");
    Files.writeString(file, "");
    assertFalse(DetectionReport.read(file).complete());
    assertFalse(DetectionReport.read(dir.resolve("missing.jsonl")).complete());
  }

  @Test
  void aSiteWithoutSourceFileKeepsNull() throws Exception {
    Path file = dir.resolve("r.jsonl");
    Files.writeString(file, """
        {"type":"race","field":"a.B.c","count":1,"wr":0,"ww":1,"kind":"WW","current":{"thread":"t","class":"a.B","method":"m","file":null,"line":-1,"stack":[]},"previous":{"thread":"u","class":"a.B","method":"n","file":null,"line":-1,"stack":[]},"sitePairs":[],"sitePairsTruncated":false}
        {"type":"summary","classesInstrumented":1,"classesSkipped":[],"races":1,"raceReports":1,"internalErrors":0}
        """);
    DetectedRace race = DetectionReport.read(file).races().get(0);
    assertNull(race.current().file());
    assertEquals(-1, race.current().line());
    assertEquals(1, race.ww());
  }
}
