package dev.racetriage.cli;

import static dev.racetriage.cli.CliRun.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code racetriage triage} as a user runs it, on a real (tiny) Maven project. */
class TriageCommandTest {
  @TempDir Path dir;



  @Test
  void anUnknownFormatIsAUsageError() {
    CliRun r = run("triage", dir.toString(), "--format", "xml");
    assertEquals(2, r.exitCode());
    assertTrue(r.err().contains("--format must be table, json or sarif"), r.err());
  }

  @Test
  void anUnknownHeuristicIsAUsageError() {
    CliRun r = run("triage", dir.toString(), "--heuristics", "oldest,newest");
    assertEquals(2, r.exitCode());
    assertTrue(r.err().contains("unknown heuristic 'newest'"), r.err());
  }

  @Test
  void fewerThanOneDetectionRunIsAUsageError() {
    CliRun r = run("triage", dir.toString(), "--detect-runs", "0");
    assertEquals(2, r.exitCode());
    assertTrue(r.err().contains("--detect-runs must be at least 1"), r.err());
  }

  /** A malformed --field or --tests is refused before the build, not after detection. */
  @Test
  void malformedFieldsAndTestPatternsFailBeforeAnyBuild() throws Exception {
    writeRacyProject(dir);
    CliRun field = run("triage", dir.toString(), "--field", "not a key");
    assertEquals(2, field.exitCode(), field.err());
    assertTrue(field.err().contains("--field") && field.err().contains("not a field key"), field.err());
    CliRun tests = run("triage", dir.toString(), "--tests", "A#b#c");
    assertEquals(2, tests.exitCode(), tests.err());
    assertTrue(tests.err().contains("--tests"), tests.err());
    assertTrue(!Files.exists(dir.resolve("target")), "nothing was built");
  }

  @Test
  void aDirectoryThatIsNotAMavenProjectIsAClearError() {
    CliRun r = run("triage", dir.toString(), "--detect-only");
    assertEquals(2, r.exitCode());
    assertTrue(r.err().contains("is not a Maven project (no pom.xml)"), r.err());
  }

  @Test
  void detectOnlyWritesTheJsonReport() throws Exception {
    writeRacyProject(dir);
    Path report = dir.resolve("report.json");

    CliRun r = run("triage", dir.toString(), "--detect-only", "--detect-runs", "2", "--format", "json", "--out",
        report.toString());

    assertEquals(0, r.exitCode(), r.err());
    JsonNode json = new ObjectMapper().readTree(Files.readString(report));
    assertEquals(1, json.path("races").size(), json::toPrettyString);
    JsonNode race = json.path("races").get(0);
    assertEquals("demo.Counter.hits", race.path("field").asText());
    assertEquals("pending", race.path("verdict").asText());
    // which kind is seen first depends on the schedule: a read of the other thread's write (WR) or two writes (WW)
    assertTrue(race.path("kinds").size() >= 1 && race.path("kinds").get(0).asText().matches("WR|WW"), race::toString);
    assertEquals("src/main/java/demo/Counter.java", race.path("accesses").get(0).path("file").asText());
    assertTrue(json.path("stats").path("detectMillis").asLong() > 0);
    assertEquals(2, json.path("stats").path("detectRuns").asInt(), "the tests ran twice under detection");
    assertTrue(json.path("stats").path("lateRaces").isArray());
    assertTrue(json.path("candidates").isArray());
  }

  /**
   * By default (bounded prediction) a race hidden by the order of two empty synchronized blocks is reported, marked
   * predicted, in a small test that the budget covers whole; --no-predict reports nothing; --predict the same race.
   */
  @Test
  void predictionIsOnByDefaultAndReportsTheRaceTheLockOrderHid() throws Exception {
    FaultFixtures.emptySynchronizedBlocks(dir, "flag");
    Path plain = dir.resolve("plain.json");
    CliRun observed = run("triage", dir.toString(), "--detect-only", "--detect-runs", "1", "--no-predict",
        "--format", "json", "--out", plain.toString());
    assertEquals(0, observed.exitCode(), observed.err());
    assertEquals(0, new ObjectMapper().readTree(Files.readString(plain)).path("races").size());

    for (String flag : List.of("", "--predict")) { // the default, then the whole run
      Path report = dir.resolve("predicted" + flag + ".json");
      List<String> args = new ArrayList<>(List.of("triage", dir.toString(), "--detect-only", "--detect-runs", "1",
          "--format", "json", "--out", report.toString()));
      if (!flag.isEmpty()) {
        args.add(flag);
      }
      CliRun r = run(args.toArray(new String[0]));
      assertEquals(0, r.exitCode(), r.err());
      JsonNode json = new ObjectMapper().readTree(Files.readString(report));
      assertEquals(1, json.path("races").size(), json::toPrettyString);
      JsonNode race = json.path("races").get(0);
      assertEquals("demo.Flag.value", race.path("field").asText());
      assertTrue(race.path("predicted").asBoolean(), race::toPrettyString);
      assertTrue(race.path("witness").asText().startsWith("flip the monitor of java.lang.Object@"), race::toString);
      assertEquals(0, json.path("stats").path("predictionStoppedAfterEvents").asLong(-1), "covered whole: " + flag);
    }
    CliRun both = run("triage", dir.toString(), "--detect-only", "--predict", "--no-predict");
    assertEquals(2, both.exitCode(), both.err());
    assertTrue(both.err().contains("--predict and --no-predict contradict each other"), both.err());
  }

  /** Container races are reported by default, kind container, on the field that holds the container; not with --no-containers. */
  @Test
  void containerRacesAreReportedUnlessTurnedOff() throws Exception {
    FaultFixtures.sharedTreeMap(dir, "ranks");
    Path report = dir.resolve("containers.json");
    CliRun r = run("triage", dir.toString(), "--detect-only", "--detect-runs", "1", "--format", "json", "--out",
        report.toString());
    assertEquals(0, r.exitCode(), r.err());
    JsonNode json = new ObjectMapper().readTree(Files.readString(report));
    assertEquals(1, json.path("races").size(), json::toPrettyString);
    JsonNode race = json.path("races").get(0);
    assertEquals("demo.Ranks.ranks{}", race.path("field").asText());
    assertTrue(race.path("kinds").toString().contains("container"), race::toString);

    Path off = dir.resolve("off.json");
    CliRun none = run("triage", dir.toString(), "--detect-only", "--detect-runs", "1", "--no-containers", "--format",
        "json", "--out", off.toString());
    assertEquals(0, none.exitCode(), none.err());
    assertEquals(0, new ObjectMapper().readTree(Files.readString(off)).path("races").size());
  }

  /**
   * A multi-module project where the --tests selection matches nothing in one module (JCTools' build-helper module
   * has no tests at all): that module is skipped, not an error, and the other module's race is found.
   */
  @Test
  void aModuleWithNoSelectedTestIsSkippedNotAnError() throws Exception {
    FaultFixtures.twoModules(dir);
    Path report = dir.resolve("report.json");
    CliRun r = run("triage", dir.toString(), "--detect-only", "--detect-runs", "1", "--tests", "CounterTest",
        "--format", "json", "--out", report.toString());
    assertEquals(0, r.exitCode(), r.err());
    JsonNode json = new ObjectMapper().readTree(Files.readString(report));
    assertEquals(1, json.path("races").size(), json::toPrettyString);
    assertEquals("demo.Counter.hits", json.path("races").get(0).path("field").asText());
  }

  @Test
  void durationsReadTheWayPeopleTypeThem() {
    assertEquals(java.time.Duration.ofMinutes(90), DurationOption.parse("--budget", "1h30m"));
    assertEquals(java.time.Duration.ofSeconds(45), DurationOption.parse("--budget", "45s"));
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> DurationOption.parse("--budget", "ten minutes"));
    assertTrue(e.getMessage().contains("such as 90s, 10m or 1h30m"));
  }

  private static void writeRacyProject(Path dir) throws Exception {
    FaultFixtures.racyCounter(dir, "counter");
  }
}
