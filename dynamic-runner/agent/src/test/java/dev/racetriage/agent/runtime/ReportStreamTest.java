package dev.racetriage.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.agent.detect.Access;
import dev.racetriage.agent.detect.RaceAggregator;
import dev.racetriage.agent.detect.RaceKind;
import dev.racetriage.agent.detect.RaceReport;
import dev.racetriage.agent.detect.RaceReportWriter;
import dev.racetriage.agent.detect.RunSummary;
import dev.racetriage.agent.detect.Site;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The streamed detect report, flushed by hand (no flusher thread): what each flush and the exit append. */
class ReportStreamTest {
  private static final Site SET = new Site("pkg.Box", "set", "Box.java", 7);
  private static final Site GET = new Site("pkg.Box", "get", "Box.java", 12);
  private static final Site RESET = new Site("pkg.Box", "reset", "Box.java", 20);

  @TempDir Path dir;
  private final RaceAggregator races = new RaceAggregator();
  private final RunSummary summary = new RunSummary();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private ReportStream open(Path file) throws Exception {
    return ReportStream.open(file, races, summary, 3, new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private static RaceReport report(String field, RaceKind kind, Site current, Site previous) {
    return new RaceReport(field, kind, new Access("reader", current, List.of()), new Access("writer", previous, List.of()));
  }

  @Test
  void aStreamStartsRunningAndEachFlushAppendsWhatChanged() throws Exception {
    Path file = dir.resolve("sub/report.jsonl");
    ReportStream stream = open(file);
    List<String> lines = Files.readAllLines(file);
    assertEquals(1, lines.size());
    assertTrue(lines.get(0).startsWith("{\"type\":\"status\",\"status\":\"running\",\"mode\":\"detect\","), lines.get(0));

    summary.classInstrumented();
    races.race(report("pkg.Box.value", RaceKind.WR, GET, SET));
    assertTrue(stream.flush());
    lines = Files.readAllLines(file);
    assertEquals(3, lines.size(), lines.toString());
    assertTrue(lines.get(1).startsWith("{\"type\":\"race\",\"field\":\"pkg.Box.value\",\"count\":1,"), lines.get(1));
    assertEquals("{\"type\":\"progress\",\"classesInstrumented\":1,\"races\":1,\"raceReports\":1,\"internalErrors\":0}",
        lines.get(2));

    races.race(report("pkg.Box.value", RaceKind.WR, GET, SET)); // counted only: no line until the exit
    assertTrue(stream.flush());
    assertEquals(3, Files.readAllLines(file).size());

    summary.classInstrumented(); // a progress line alone
    assertTrue(stream.flush());
    lines = Files.readAllLines(file);
    assertEquals(4, lines.size());
    assertTrue(lines.get(3).startsWith("{\"type\":\"progress\",\"classesInstrumented\":2,\"races\":1,\"raceReports\":2"),
        lines.get(3));
    assertFalse(stream.finished());
  }

  /**
   * Normal exit: every field's last line is the line the at-exit report ({@link RunReport#write}) has for it, the
   * summary is the same and written once, and the status is written into the first line's slot.
   */
  @Test
  void theClosedFileSaysWhatTheAtExitReportSays() throws Exception {
    Path file = dir.resolve("report.jsonl");
    ReportStream stream = open(file);
    summary.classInstrumented();
    races.race(report("pkg.Box.value", RaceKind.WR, GET, SET));
    stream.flush();
    races.race(report("pkg.Box.value", RaceKind.WW, RESET, SET));
    races.race(report("pkg.Box.other", RaceKind.WW, SET, SET));
    stream.flush();
    races.race(report("pkg.Box.value", RaceKind.WR, GET, SET));
    races.race(report("pkg.Box.other", RaceKind.WW, SET, SET));
    int before = Files.readAllLines(file).get(0).length();
    RunReport.Status status = RunReport.statusOf(summary, null);

    assertTrue(stream.close(status, 12, 1));
    assertTrue(stream.close(status, 12, 1), "a second exit path writes nothing");
    assertTrue(stream.flush(), "a flush after the exit writes nothing");
    assertTrue(stream.finished());

    List<String> lines = Files.readAllLines(file);
    assertEquals(before, lines.get(0).length(), "the status slot keeps its width");
    assertEquals(RunReport.statusLine(status, 12, 1), lines.get(0).strip());
    Map<String, String> lastLines = new LinkedHashMap<>();
    List<String> summaries = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith("{\"type\":\"race\"")) {
        lastLines.put(line.substring(0, line.indexOf(",\"count\"")), line);
      } else if (line.startsWith("{\"type\":\"summary\"")) {
        summaries.add(line);
      }
    }
    List<String> atExit = new ArrayList<>();
    StringWriter whole = new StringWriter();
    RaceReportWriter.write(whole, races.fields(), races.totalReports(), summary);
    for (String line : whole.toString().split("\n")) {
      atExit.add(line);
    }
    List<String> streamed = new ArrayList<>(lastLines.values());
    streamed.addAll(summaries);
    assertEquals(atExit, streamed);
    assertEquals(lines.get(lines.size() - 1), summaries.get(0), "the summary ends the file");
  }

  @Test
  void aRunThatInstrumentedNothingEndsWithTheErrorStatusInPlace() throws Exception {
    Path file = dir.resolve("report.jsonl");
    ReportStream stream = open(file);
    RunReport.Status status = RunReport.statusOf(summary, null);
    assertTrue(stream.close(status, Long.MAX_VALUE, Long.MAX_VALUE));
    List<String> lines = Files.readAllLines(file);
    assertEquals(RunReport.statusLine(status, Long.MAX_VALUE, Long.MAX_VALUE), lines.get(0), "the widest status fits");
    assertTrue(lines.get(1).startsWith("{\"type\":\"summary\",\"classesInstrumented\":0,"), lines.toString());
    assertEquals(2, lines.size());
  }

  /** A stream that cannot write says so, stops, and hands the report back to the whole-file writer at exit. */
  @Test
  void aFailedWriteIsNamedAndTheExitFallsBack() throws Exception {
    Path file = dir.resolve("report.jsonl");
    ReportStream stream = open(file);
    closeDescriptor(stream);
    races.race(report("pkg.Box.value", RaceKind.WR, GET, SET));
    assertFalse(stream.flush());
    assertTrue(stream.finished());
    assertFalse(stream.flush(), "it stays failed");
    assertFalse(stream.close(RunReport.statusOf(summary, null), 0, 0));
    String message = err.toString(StandardCharsets.UTF_8);
    assertTrue(message.contains("could not write the report " + file.toAbsolutePath()), message);
  }

  private static void closeDescriptor(ReportStream stream) throws Exception {
    java.lang.reflect.Field out = ReportStream.class.getDeclaredField("out");
    out.setAccessible(true);
    ((java.io.RandomAccessFile) out.get(stream)).close();
  }

  /** The launcher's call is harmless where no detect report streams (no agent, jumble mode). */
  @Test
  void flushNowWithoutAStreamSaysSo() {
    assertFalse(ReportStream.flushNow());
  }
}
