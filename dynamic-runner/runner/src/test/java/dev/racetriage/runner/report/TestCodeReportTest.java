package dev.racetriage.runner.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racetriage.runner.detect.DetectedRace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A race is a test-code race when every site it was seen at is in a file under src/test of the project. */
class TestCodeReportTest {
  @TempDir Path project;

  @Test
  void everySiteUnderSrcTestMakesATestCodeRace() throws Exception {
    Files.createDirectories(project.resolve("core/src/main/java/p"));
    Files.createDirectories(project.resolve("core/src/test/java/p"));
    Files.writeString(project.resolve("core/src/main/java/p/Cache.java"), "package p; class Cache {}");
    Files.writeString(project.resolve("core/src/test/java/p/CacheTest.java"), "package p; class CacheTest {}");
    SourceLocator sources = new SourceLocator(project);

    DetectedRace.Access spin = access("p.CacheTest", "CacheTest.java", 4);
    DetectedRace.Access stop = access("p.CacheTest$1", "CacheTest.java", 12);
    DetectedRace.Access get = access("p.Cache", "Cache.java", 5);
    DetectedRace.Access library = access("org.lib.Lib", "Lib.java", 3);
    // the h-summary may keep no earlier write: it says nothing either way
    DetectedRace.Access unknown = new DetectedRace.Access("?", null, null, null, 0, List.of());

    assertTrue(sources.inTestCode(race(spin, stop, List.of())));
    assertTrue(sources.inTestCode(race(spin, unknown, List.of())));
    assertFalse(sources.inTestCode(race(spin, stop, List.of(new DetectedRace.SitePair("WR", get, stop)))),
        "one site pair in the product makes it the product's race");
    assertFalse(sources.inTestCode(race(spin, library, List.of())), "a file the project does not hold");
    assertFalse(sources.inTestCode(race(get, stop, List.of())));
  }

  @Test
  void theTriageJsonAndSarifCarryTheFlag() throws Exception {
    Files.createDirectories(project.resolve("src/test/java/p"));
    Files.writeString(project.resolve("src/test/java/p/CacheTest.java"), "package p; class CacheTest {}");
    SourceLocator sources = new SourceLocator(project);
    DetectedRace race = race(access("p.CacheTest", "CacheTest.java", 4), access("p.CacheTest", "CacheTest.java", 9),
        List.of());
    var finding = new dev.racetriage.runner.triage.RaceFinding(race,
        dev.racetriage.store.verdicts.Verdict.BENIGN, "no failure", null, 0, List.of(), null, null);
    var stats = new dev.racetriage.runner.triage.TriageStats(0, 0, 0, 0, 0, 0, 0, 1, List.of(), 1, List.of(),
        List.of(), 0);
    var result = new dev.racetriage.runner.triage.TriageResult(List.of(finding), List.of(), List.of(), stats, true);
    JsonNode json = new ObjectMapper().readTree(TriageJson.render(result, sources));
    assertTrue(json.at("/races/0/testCode").asBoolean(), json.toString());
    JsonNode sarif = new ObjectMapper().readTree(TriageSarif.render(result, sources));
    assertTrue(sarif.at("/runs/0/results/0/properties/testCode").asBoolean(), sarif.toString());
    assertEquals("test-code", sarif.at("/runs/0/results/0/properties/tags/0").asText());
  }

  private static DetectedRace.Access access(String className, String file, int line) {
    return new DetectedRace.Access("t", className, "m", file, line, List.of());
  }

  private static DetectedRace race(DetectedRace.Access current, DetectedRace.Access previous,
      List<DetectedRace.SitePair> pairs) {
    return new DetectedRace("p.CacheTest.flag", 1, 1, 0, current, previous, pairs, List.of("p.CacheTest#t"));
  }
}
