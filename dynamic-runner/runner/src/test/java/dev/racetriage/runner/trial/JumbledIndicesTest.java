package dev.racetriage.runner.trial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.racetriage.agent.detect.Access;
import dev.racetriage.agent.detect.RaceAggregator;
import dev.racetriage.agent.detect.RaceKind;
import dev.racetriage.agent.detect.RaceReport;
import dev.racetriage.agent.detect.RaceReportWriter;
import dev.racetriage.agent.detect.RunSummary;
import dev.racetriage.agent.detect.Site;
import dev.racetriage.agent.options.AgentOptionsParser;
import dev.racetriage.agent.options.JumbleOptions;
import dev.racetriage.runner.detect.DetectedRace;
import dev.racetriage.runner.detect.DetectionReport;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The racing indices go from the agent's detection report (written by the agent's own writer) through the runner's
 * reader and the trial cell to the jumble agent's argument (read back by the agent's own parser).
 */
class JumbledIndicesTest {
  private static final Site READ = new Site("demo.Sieve", "crossOut", "Sieve.java", 20);
  private static final Site WRITE = new Site("demo.Sieve", "crossOut", "Sieve.java", 23);

  @TempDir Path dir;

  private static RaceReport race(String field, RaceKind kind, int index) {
    return new RaceReport(field, kind, new Access("sieve-0", READ, List.of()), new Access("sieve-1", WRITE, List.of()),
        index);
  }

  private Path report(RaceReport... races) throws Exception {
    RaceAggregator aggregator = new RaceAggregator();
    for (RaceReport r : races) aggregator.race(r);
    RunSummary summary = new RunSummary();
    summary.classInstrumented();
    Path file = dir.resolve("races.jsonl");
    try (Writer out = Files.newBufferedWriter(file)) {
      RaceReportWriter.write(out, aggregator.fields(), aggregator.totalReports(), summary);
    }
    return file;
  }

  private static String agentOptions(DetectedRace race) {
    TrialCell cell = new TrialCell(race.fieldKey(), "id", "demo.SieveTest#count", "oldest",
        JumbledIndices.choose(race.fieldKey(), race.indices()));
    return cell.spec(0).agentOptions("jumble.jsonl");
  }

  private static JumbleOptions parsedByTheAgent(String options) throws Exception {
    return AgentOptionsParser.parse(options).jumble();
  }

  @Test
  void theIndicesThatRacedReachTheJumbleAgentsOptions() throws Exception {
    String array = "demo.Sieve.composite[]";
    DetectedRace race = DetectionReport.read(report(race(array, RaceKind.WW, 16), race(array, RaceKind.WR, 4),
        race(array, RaceKind.WR, 9), race(array, RaceKind.WW, 4))).races().get(0);
    assertEquals(List.of(4, 9, 16), race.indices(), "reads' indices first, then WW-only ones");

    String options = agentOptions(race);
    assertEquals("mode=jumble;field=demo.Sieve.composite[];heuristic=oldest;seed=" + new TrialCell(array, "id",
        "demo.SieveTest#count", "oldest").seed(0) + ";indices=4,9,16;out=jumble.jsonl", options);
    assertEquals(List.of(4, 9, 16), parsedByTheAgent(options).indices());
    assertEquals("4,9,16", JumbledIndices.describe(array, List.of(4, 9, 16)), "the verdict's evidence names them");
  }

  @Test
  void atMostEightRacingIndicesAreJumbled() throws Exception {
    String array = "demo.Sieve.composite[]";
    RaceReport[] many = IntStream.range(0, 20).mapToObj(i -> race(array, RaceKind.WR, 100 + i)).toArray(RaceReport[]::new);
    DetectedRace race = DetectionReport.read(report(many)).races().get(0);
    assertEquals(20, race.indices().size());
    assertEquals(List.of(100, 101, 102, 103, 104, 105, 106, 107), parsedByTheAgent(agentOptions(race)).indices());
    assertEquals(JumbledIndices.MAX, 8);
  }

  @Test
  void aFieldOrAReportWithoutIndicesKeepsTheAgentsDefaultZeroAndOne() throws Exception {
    DetectedRace field = DetectionReport.read(report(race("demo.Sieve.limit", RaceKind.WR, RaceReport.NO_INDEX)))
        .races().get(0);
    assertEquals(List.of(), field.indices());
    assertFalse(agentOptions(field).contains("indices="), agentOptions(field));

    // a report from an agent that did not write "indices" yet
    Path old = dir.resolve("old.jsonl");
    Files.writeString(old, """
        {"type":"race","field":"demo.Halo.sync[]","count":1,"wr":1,"ww":0,"kind":"WR","current":{"thread":"t","class":"demo.Halo","method":"m","file":null,"line":-1,"stack":[]},"previous":{"thread":"u","class":"demo.Halo","method":"n","file":null,"line":-1,"stack":[]},"sitePairs":[],"sitePairsTruncated":false,"tests":[]}
        {"type":"summary","classesInstrumented":1,"classesSkipped":[],"races":1,"raceReports":1,"internalErrors":0}
        """);
    DetectedRace array = DetectionReport.read(old).races().get(0);
    assertEquals(List.of(), array.indices());
    assertEquals(JumbleOptions.DEFAULT_INDICES, parsedByTheAgent(agentOptions(array)).indices());
    assertEquals("0,1 (the agent's default)", JumbledIndices.describe(array.fieldKey(), List.of()));
    assertEquals(null, JumbledIndices.describe(field.fieldKey(), List.of()), "a field has no elements");
  }
}
