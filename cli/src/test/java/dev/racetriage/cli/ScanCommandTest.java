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

/** {@code racetriage scan} end to end: real sources on disk, the real prefilter, each output format. */
class ScanCommandTest {


  private static final String RACY = """
      package demo;

      public class Flag {
        private boolean stop;

        public void start() {
          new Thread(() -> {
            while (!stop) {
              Thread.onSpinWait();
            }
          }).start();
        }

        public void halt() {
          stop = true;
        }
      }
      """;

  @TempDir Path dir;


  private Path project() throws Exception {
    Path source = dir.resolve("src/main/java/demo/Flag.java");
    Files.createDirectories(source.getParent());
    Files.writeString(source, RACY);
    return dir;
  }

  @Test
  void textListsTheCandidateWithItsPatternAndReasons() throws Exception {
    CliRun result = run("scan", project().toString());
    assertEquals(0, result.exitCode(), result.err());
    assertTrue(result.out().startsWith("demo.Flag.stop  (confidence "), result.out());
    assertTrue(result.out().contains("pattern busy-wait at line 8"), result.out());
    assertTrue(result.out().contains("src/main/java/demo/Flag.java:15  write in halt() without lock"), result.out());
    // no pom.xml: a warning, and the scan still runs
    assertTrue(result.err().contains("no pom.xml"), result.err());
  }

  @Test
  void jsonHasCandidatesAndStats() throws Exception {
    CliRun result = run("scan", project().toString(), "--format", "json");
    assertEquals(0, result.exitCode(), result.err());
    JsonNode root = new ObjectMapper().readTree(result.out());
    JsonNode candidate = root.get("candidates").get(0);
    assertEquals("demo.Flag.stop", candidate.get("field").asText());
    assertEquals("src/main/java/demo/Flag.java", candidate.get("file").asText());
    assertEquals(4, candidate.get("line").asInt());
    List<String> keys = new ArrayList<>();
    candidate.fieldNames().forEachRemaining(keys::add);
    assertTrue(keys.containsAll(List.of("field", "file", "line", "confidence", "patterns", "reasons", "accesses")));
    JsonNode access = candidate.get("accesses").get(0);
    for (String key : List.of("file", "line", "kind", "locks")) {
      assertTrue(access.has(key), key);
    }
    assertEquals(1, root.get("stats").get("files").asInt());
    assertTrue(root.get("stats").get("millis").asLong() >= 0);
  }

  @Test
  void sarifIsVersion210WithAPhysicalLocation() throws Exception {
    CliRun result = run("scan", project().toString(), "--format", "SARIF");
    assertEquals(0, result.exitCode(), result.err());
    JsonNode root = new ObjectMapper().readTree(result.out());
    assertEquals("2.1.0", root.get("version").asText());
    JsonNode sarifResult = root.get("runs").get(0).get("results").get(0);
    assertEquals("busy-wait", sarifResult.get("ruleId").asText());
    assertEquals("src/main/java/demo/Flag.java", sarifResult.get("locations").get(0).get("physicalLocation")
        .get("artifactLocation").get("uri").asText());
  }

  @Test
  void theRacyShapesExampleThroughMaven() {
    Path example = Path.of("..", "examples", "racy-shapes").toAbsolutePath().normalize();
    CliRun result = run("scan", example.toString(), "--format", "json");
    assertEquals(0, result.exitCode(), result.err());
    assertTrue(result.out().contains("\"field\" : \"dev.racetriage.examples.Point.p\""), result.out());
    assertTrue(!result.out().contains("SafePoint"), result.out());
  }

  @Test
  void aMissingDirectoryIsAUserError() {
    CliRun result = run("scan", dir.resolve("nope").toString());
    assertEquals(2, result.exitCode());
    assertTrue(result.err().startsWith("racetriage: cannot scan ") && result.err().contains("no such directory"),
        result.err());
  }

  @Test
  void aDirectoryWithoutJavaSourcesIsAUserError() {
    CliRun result = run("scan", dir.toString());
    assertEquals(2, result.exitCode());
    assertTrue(result.err().contains("no Java sources"), result.err());
  }

  @Test
  void anUnknownFormatIsAUserError() throws Exception {
    CliRun result = run("scan", project().toString(), "--format", "xml");
    assertEquals(2, result.exitCode());
    assertTrue(result.err().contains("unknown --format 'xml'; use one of text, json, sarif"), result.err());
  }
}
