package dev.racetriage.runner.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.detect.Access;
import dev.racetriage.agent.detect.RaceAggregator;
import dev.racetriage.agent.detect.RaceKind;
import dev.racetriage.agent.detect.RaceReport;
import dev.racetriage.agent.detect.RaceReportWriter;
import dev.racetriage.agent.detect.RunSummary;
import dev.racetriage.agent.detect.Site;
import dev.racetriage.agent.runtime.RunReport;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
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
    summary.untrackedArray("demo.Grid.cells[]", "double", 5_000_000);
    Path file = dir.resolve("races.jsonl");
    try (Writer out = Files.newBufferedWriter(file)) {
      RaceReportWriter.write(out, aggregator.fields(), aggregator.totalReports(), summary);
    }

    DetectionReport report = DetectionReport.read(file);

    assertTrue(report.complete());
    assertEquals(2, report.classesInstrumented());
    assertEquals(List.of(new DetectionReport.SkippedClass("demo.Huge", "method too large")), report.skipped());
    assertEquals(List.of(new DetectionReport.UntrackedArray("demo.Grid.cells[]", "double", 5_000_000, 1)),
        report.untrackedArrays());
    assertEquals("demo.Grid.cells[] (double, 5000000 elements)", report.untrackedArrays().get(0).describe());
    DetectionReport twice = DetectionReport.readAll(List.of(file, file));
    assertEquals(report.untrackedArrays(), twice.untrackedArrays(), "one key across JVMs is one array entry");
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

  /**
   * A race only the agent's WCP analysis found (predict=true) reads back as predicted with its witness; once any run
   * observes the field racing, it is no longer a prediction — in one JVM's aggregate and across JVMs.
   */
  @Test
  void predictedRacesReadBackPredictedUntilARunObservesThem() throws Exception {
    Site first = new Site("demo.Flag", "lambda$run$0", "Flag.java", 10);
    Site second = new Site("demo.Flag", "lambda$run$1", "Flag.java", 20);
    String witness = "flip the monitor of java.lang.Object@1f: T1 released it before T2 acquired it, and their"
        + " critical sections have no conflicting access";
    RaceAggregator predicted = new RaceAggregator();
    predicted.predicted(new RaceReport("demo.Flag.value", RaceKind.WW, new Access("T2", second, List.of()),
        new Access("T1", first, List.of())), witness);
    RaceAggregator observed = new RaceAggregator();
    observed.predicted(new RaceReport("demo.Flag.value", RaceKind.WW, new Access("T2", second, List.of()),
        new Access("T1", first, List.of())), witness);
    observed.race(new RaceReport("demo.Flag.value", RaceKind.WW, new Access("T1", first, List.of()),
        new Access("T2", second, List.of())));
    Path predictedFile = dir.resolve("predicted.jsonl");
    Path observedFile = dir.resolve("observed.jsonl");
    for (var pair : List.of(java.util.Map.entry(predictedFile, predicted), java.util.Map.entry(observedFile, observed))) {
      try (Writer out = Files.newBufferedWriter(pair.getKey())) {
        RaceReportWriter.write(out, pair.getValue().fields(), pair.getValue().totalReports(), new RunSummary());
      }
    }

    DetectedRace race = DetectionReport.read(predictedFile).races().get(0);
    assertTrue(race.predicted());
    assertEquals(witness, race.witness());
    assertTrue(Files.readString(predictedFile).contains("\"predicted\":true,\"witness\":\"flip the monitor"));
    DetectedRace seen = DetectionReport.read(observedFile).races().get(0);
    assertFalse(seen.predicted(), "a happens-before report of the same field makes it observed");
    assertFalse(Files.readString(observedFile).contains("\"predicted\""));
    DetectedRace merged = DetectionReport.readAll(List.of(predictedFile, observedFile)).races().get(0);
    assertFalse(merged.predicted(), "another JVM observed it");
    assertEquals(witness, merged.witness());
    assertTrue(DetectionReport.readAll(List.of(predictedFile, predictedFile)).races().get(0).predicted());
  }

  @Test
  void aReportWithoutItsSummaryIsIncomplete() throws Exception {
    Path file = dir.resolve("cut.jsonl");
    Files.writeString(file, "");
    assertFalse(DetectionReport.read(file).complete());
    assertFalse(DetectionReport.read(file).partial(), "no status line: the agent never started");
    assertFalse(DetectionReport.read(dir.resolve("missing.jsonl")).complete());
    assertFalse(DetectionReport.read(dir.resolve("missing.jsonl")).started());
  }

  /**
   * The agent streams its report: a field's line is repeated as it grows, the last one is its state. A JVM killed
   * mid-write leaves a cut last line (here cut inside a two-byte character), which is skipped; what came before is a
   * partial report that still names the races and the classes instrumented so far.
   */
  @Test
  void aStreamedReportOfAKilledJvmKeepsTheLastLineOfEachFieldAndSkipsTheCutOne() throws Exception {
    RaceAggregator aggregator = new RaceAggregator();
    Site write = new Site("demo.Point", "<init>", "Point.java", 12);
    Site read = new Site("demo.Point", "slope", "Point.java", 30);
    Site reset = new Site("demo.Point", "reset", "Point.java", 40);
    RunSummary summary = new RunSummary();
    summary.classInstrumented();
    StringBuilder file = new StringBuilder();
    file.append(RunReport.statusLine(RunReport.statusOf(summary, null), 0, 0)).append("   \n"); // padded in place
    aggregator.race(new RaceReport("demo.Point.x", RaceKind.WR, new Access("w2", read, List.of()),
        new Access("w1", write, List.of())));
    file.append(RaceReportWriter.raceLine(aggregator.fields().get(0))).append('\n');
    file.append(RaceReportWriter.progressLine(7, 1, 1, 0)).append('\n');
    aggregator.race(new RaceReport("demo.Point.y", RaceKind.WW, new Access("w2", reset, List.of()),
        new Access("w1", write, List.of())));
    aggregator.race(new RaceReport("demo.Point.x", RaceKind.WW, new Access("w2", reset, List.of()),
        new Access("w1", write, List.of())));
    for (var f : aggregator.fields()) {
      file.append(RaceReportWriter.raceLine(f)).append('\n');
    }
    file.append(RaceReportWriter.progressLine(9, 2, 3, 0)).append('\n');
    String next = RaceReportWriter.raceLine(aggregator.fields().get(0)).replace("w2", "w\u00e9");
    byte[] head = file.toString().getBytes(StandardCharsets.UTF_8);
    byte[] cut = next.getBytes(StandardCharsets.UTF_8);
    Path path = dir.resolve("killed.jsonl");
    try (var out = Files.newOutputStream(path)) {
      out.write(head);
      out.write(cut, 0, next.indexOf('\u00e9') + 1); // the first byte of é only
    }

    DetectionReport report = DetectionReport.read(path);

    assertFalse(report.complete());
    assertTrue(report.started());
    assertTrue(report.partial());
    assertTrue(report.tornLastLine());
    assertEquals(9, report.classesInstrumented(), "from the last progress line");
    assertEquals(List.of("demo.Point.x", "demo.Point.y"), report.races().stream().map(DetectedRace::fieldKey).toList());
    DetectedRace x = report.races().get(0);
    assertEquals(2, x.count(), "the last line of the field wins");
    assertEquals(1, x.ww());
    assertEquals(2, x.sitePairs().size());
  }

  @Test
  void aCompleteStreamedReportIsNotPartial() throws Exception {
    Path file = dir.resolve("done.jsonl");
    Files.writeString(file, """
        {"type":"status","status":"ok","mode":"detect","message":null,"jdkClassesTrusted":1,"untrackedArrays":0}
        {"type":"progress","classesInstrumented":1,"races":0,"raceReports":0,"internalErrors":0}
        {"type":"summary","classesInstrumented":4,"classesSkipped":[],"races":0,"raceReports":0,"internalErrors":0}
        """);
    DetectionReport report = DetectionReport.read(file);
    assertTrue(report.complete());
    assertFalse(report.partial());
    assertFalse(report.tornLastLine());
    assertEquals(4, report.classesInstrumented(), "the summary, not the progress line");
  }

  /** The predictive analysis's stop reads back from the summary, the largest over a module's JVMs; absent: 0. */
  @Test
  void aPredictionStopReadsBackFromTheSummary() throws Exception {
    Path stopped = dir.resolve("stopped.jsonl");
    Files.writeString(stopped, """
        {"type":"status","status":"ok","mode":"detect","message":null,"jdkClassesTrusted":1,"untrackedArrays":0}
        {"type":"summary","classesInstrumented":4,"classesSkipped":[],"untrackedArrays":[],"predictionEvents":250000,"predictionStoppedAfterEvents":100000,"predictionStops":2,"races":0,"raceReports":0,"internalErrors":0}
        """);
    Path older = dir.resolve("older.jsonl");
    Files.writeString(older, """
        {"type":"status","status":"ok","mode":"detect","message":null,"jdkClassesTrusted":1,"untrackedArrays":0}
        {"type":"summary","classesInstrumented":4,"classesSkipped":[],"races":0,"raceReports":0,"internalErrors":0}
        """);
    assertEquals(100000, DetectionReport.read(stopped).predictionStoppedAfterEvents());
    assertEquals(0, DetectionReport.read(older).predictionStoppedAfterEvents(), "an older agent's report");
    assertEquals(100000, DetectionReport.readAll(List.of(older, stopped)).predictionStoppedAfterEvents());
  }

  @Test
  void anUnreadableLineBeforeTheEndIsAnErrorThatNamesTheFile() throws Exception {
    Path file = dir.resolve("damaged.jsonl");
    Files.writeString(file, """
        {"type":"status","status":"running"
        {"type":"summary","classesInstrumented":4,"classesSkipped":[],"races":0,"raceReports":0,"internalErrors":0}
        """);
    IOException e = assertThrows(IOException.class, () -> DetectionReport.read(file));
    assertTrue(e.getMessage().contains(file + " has an unreadable line 1"), e.getMessage());
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
