package dev.racetriage.cli;

import static dev.racetriage.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.candidates.StaticCandidate;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.AccessType;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.trials.Trial;
import dev.racetriage.store.trials.TrialOutcome;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code racetriage report} on a stored triage: nothing runs, every format says the same things. */
class ReportCommandTest {
  private static final String FAILURE = "org.opentest4j.AssertionFailedError: expected: <1> but was: <0>\n"
      + "\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)\n"
      + "\tat org.junit.jupiter.api.AssertEquals.failNotEqual(AssertEquals.java:197)\n"
      + "\tat p.CacheTest.hits(CacheTest.java:9)\n"
      + "\tat java.base/java.lang.Thread.run(Thread.java:840)\n";

  @TempDir Path project;

  @BeforeEach
  void storedTriage() throws Exception {
    Files.createDirectories(project.resolve("src/main/java/p"));
    Files.createDirectories(project.resolve("src/test/java/p"));
    Files.writeString(project.resolve("src/main/java/p/Cache.java"), "package p;\nclass Cache {\n  int hash;\n"
        + "  int size;\n  int get() { return hash; }\n}\n");
    Files.writeString(project.resolve("src/test/java/p/CacheTest.java"), "package p;\nclass CacheTest {\n"
        + "  boolean flag;\n}\n");
    try (TriageStore store = TriageStore.openProject(project)) {
      Run run = store.runs().start("triage", null, null);
      FieldKey hash = FieldKey.parse("p.Cache.hash");
      store.races().upsert(new Race(hash, Set.of(RaceKind.WR), List.of(
          new AccessSite(AccessType.READ, "worker-1", "Cache.java", 5, List.of("p.Cache.get(Cache.java:5)")),
          new AccessSite(AccessType.WRITE, "", "Cache.java", 3, List.of()),
          new AccessSite(AccessType.READ, "worker-2", "Cache.java", 5, List.of("p.Cache.get(Cache.java:5)", "x.Y"))),
          Set.of("p.CacheTest#hits")), run.id());
      store.trials().addAll(List.of(
          new Trial(hash, "p.CacheTest#hits", "sc", 3, TrialOutcome.PASS, Duration.ofMillis(10), 10, 0, null),
          new Trial(hash, "p.CacheTest#hits", "oldest", 7, TrialOutcome.FAIL, Duration.ofMillis(30), 10, 4, FAILURE),
          new Trial(hash, "p.CacheTest#hits", "oldest", 8, TrialOutcome.PASS, Duration.ofMillis(20), 10, 2, null)),
          run.id());
      store.verdicts().set(hash, Verdict.DESTRUCTIVE, new Evidence("1/2 runs failed under oldest, 0/1 under sc",
          "cd /x && java '-javaagent:a.jar=mode=jumble;field=p.Cache.hash' -cp c p.Main", FAILURE, Map.of()), run.id());
      store.candidates().replaceAll(List.of(new StaticCandidate(hash, "src/main/java/p/Cache.java", 3, 0.9,
          List.of("check-then-act"), List.of("read twice in get()"))));
      FieldKey size = FieldKey.parse("p.Cache.size");
      store.races().upsert(new Race(size, Set.of(RaceKind.WW), List.of(
          new AccessSite(AccessType.WRITE, "t", "Cache.java", 4, List.of("p.Cache.put(Cache.java:4)"))),
          Set.of("p.CacheTest#puts")), run.id());
      store.verdicts().set(size, Verdict.BENIGN, Evidence.of("40 stale values served, no failure"), run.id());
      FieldKey flag = FieldKey.parse("p.CacheTest.flag");
      store.races().upsert(new Race(flag, Set.of(RaceKind.WR), List.of(
          new AccessSite(AccessType.READ, "t", "CacheTest.java", 3, List.of("p.CacheTest.spin(CacheTest.java:3)"))),
          Set.of("p.CacheTest#spins")), run.id());
      store.runs().finish(run.id(), dev.racetriage.store.runs.RunStatus.SUCCEEDED, "3 races", null);
    }
  }

  @Test
  void theTableShowsWhereWhatFailedTheFixAndTheReplay() {
    CliRun r = run("report", project.toString());
    assertEquals(0, r.exitCode(), r.err());
    String out = r.out();
    assertTrue(out.contains("src/main/java/p/Cache.java:5"), out);
    assertTrue(out.contains("write src/main/java/p/Cache.java:3"), out);
    assertEquals(1, out.split("read src/main/java/p/Cache.java:5", -1).length - 1, "one read site is one line: " + out);
    assertTrue(out.contains("expected: <1> but was: <0>"), out);
    assertTrue(out.contains("p.CacheTest.hits(CacheTest.java:9)"), "the project's frame: " + out);
    assertFalse(out.contains("AssertionFailureBuilder"), "the test framework's frames are left out: " + out);
    assertTrue(out.contains("fix: Read the field once into a local variable"), out);
    assertTrue(out.contains("replay: racetriage replay p.Cache.hash --test 'p.CacheTest#hits' --heuristic oldest "
        + "--seed 7 --project "), out);
    assertTrue(out.indexOf("p.Cache.hash") < out.indexOf("p.Cache.size"), "most severe first");
  }

  @Test
  void testCodeRacesAreListedApartByDefaultAndLabelledInEveryFormat() throws Exception {
    String out = run("report", project.toString()).out();
    int heading = out.indexOf("Races in test code (1): every access is under src/test");
    assertTrue(heading > 0, out);
    assertTrue(out.indexOf("p.Cache.size") < heading && out.indexOf("p.CacheTest.flag") > heading,
        "the product's races first, the test-code race in its section: " + out);
    assertTrue(out.contains("open (test code)") && out.contains("test-code race: every access is under src/test"), out);
    String together = run("report", project.toString(), "--scope", "all").out();
    assertFalse(together.contains("Races in test code"), together);
    assertTrue(together.contains("open (test code)"), together);

    JsonNode json = json();
    assertEquals(1, json.path("testCodeRaces").asInt());
    json.path("races").forEach(r -> assertEquals(r.path("race").path("id").asText().equals("p.CacheTest.flag"),
        r.path("testCode").asBoolean(), r.toString()));

    String md = run("report", project.toString(), "--format", "markdown").out();
    assertTrue(md.indexOf("### Races in test code (1)") > md.indexOf("`p.Cache.size`"), md);
    assertTrue(md.indexOf("`p.CacheTest.flag`") > md.indexOf("### Races in test code"), md);

    JsonNode results = new ObjectMapper().readTree(run("report", project.toString(), "--format", "sarif").out())
        .path("runs").get(0).path("results");
    for (JsonNode result : results) {
      boolean test = result.path("properties").path("field").asText().equals("p.CacheTest.flag");
      assertEquals(test, result.path("properties").path("testCode").asBoolean(), result.toString());
      assertEquals(test, result.path("properties").path("tags").toString().contains("test-code"), result.toString());
    }
  }

  @Test
  void filtersByVerdictStateFieldAndTestCode() throws Exception {
    assertEquals(List.of("p.Cache.hash"), fields("--verdict", "destructive"));
    assertEquals(List.of("p.Cache.size"), fields("--field", "p.Cache.size"));
    assertEquals(List.of("p.Cache.hash", "p.Cache.size"), fields("--field", "p.Cache."));
    assertEquals(List.of("p.CacheTest.flag"), fields("--scope", "test"));
    assertEquals(List.of("p.Cache.hash", "p.Cache.size"), fields("--scope", "product"));
    assertEquals(3, fields("--scope", "all").size());
    CliRun badScope = run("report", project.toString(), "--scope", "tests");
    assertEquals(2, badScope.exitCode());
    assertTrue(badScope.err().contains("product, test or all"), badScope.err());
    assertTrue(fields("--state", "trusted-benign").isEmpty());
    assertEquals(0, run("mark", "p.Cache.size", "--trusted-benign", "--note", "statistics only", "--project",
        project.toString()).exitCode());
    assertEquals(List.of("p.Cache.size"), fields("--state", "trusted-benign"));
    CliRun bad = run("report", project.toString(), "--state", "closed");
    assertEquals(2, bad.exitCode());
    assertTrue(bad.err().contains("open, regressed, trusted-benign or fixed"), bad.err());
    assertEquals(2, run("report", project.toString(), "--verdict", "evil").exitCode());
  }

  @Test
  void jsonKeepsTheRawJavaLineForToolsAndNamesTheRates() throws Exception {
    JsonNode race = json("--field", "p.Cache.hash").path("races").get(0);
    assertTrue(race.path("replayCommand").asText().startsWith("racetriage replay p.Cache.hash"));
    assertTrue(race.path("javaCommand").asText().contains("-javaagent"));
    JsonNode oldest = race.path("heuristics").get(1);
    assertEquals("oldest", oldest.path("heuristic").asText());
    assertEquals(0.5, oldest.path("failureRate").asDouble(), 1e-9);
    assertEquals(0.3, oldest.path("staleReadRate").asDouble(), 1e-9);
    assertEquals(25, oldest.path("medianMillis").asLong());
    assertEquals("src/main/java/p/Cache.java", race.path("accesses").get(0).path("projectPath").asText());
  }

  @Test
  void markdownForAPullRequestAndSarifForCodeScanning() throws Exception {
    CliRun md = run("report", project.toString(), "--format", "markdown");
    assertEquals(0, md.exitCode(), md.err());
    assertTrue(md.out().contains("**1 open destructive race** in the product's code."), md.out());
    assertTrue(md.out().contains("| `p.Cache.hash` | destructive | open | `src/main/java/p/Cache.java:5` |"), md.out());
    assertTrue(md.out().contains("```sh\nracetriage replay p.Cache.hash"), md.out());
    CliRun sarif = run("report", project.toString(), "--format", "sarif");
    JsonNode results = new ObjectMapper().readTree(sarif.out()).path("runs").get(0).path("results");
    assertEquals(3, results.size(), sarif.out());
    assertEquals("error", results.get(0).path("level").asText());
  }

  @Test
  void withoutADatabaseItSaysToTriageFirst(@TempDir Path empty) {
    CliRun r = run("report", empty.toString());
    assertEquals(1, r.exitCode());
    assertTrue(r.err().contains("racetriage triage"), r.err());
  }

  private List<String> fields(String... filters) throws Exception {
    List<String> fields = new ArrayList<>();
    json(filters).path("races").forEach(r -> fields.add(r.path("race").path("id").asText()));
    return fields;
  }

  private JsonNode json(String... filters) throws Exception {
    List<String> args = new ArrayList<>(List.of("report", project.toString(), "--format", "json"));
    args.addAll(List.of(filters));
    CliRun r = run(args.toArray(String[]::new));
    assertEquals(0, r.exitCode(), r.err());
    return new ObjectMapper().readTree(r.out());
  }
}
