package dev.racetriage.prefilter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racetriage.prefilter.report.ReportFormat;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JSON, SARIF 2.1.0 and text reports of one scan. */
class ReportsTest {

  @TempDir Path dir;
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void jsonHasTheDocumentedShape() throws Exception {
    Analysis analysis = Fixtures.scan(dir, "DoubleCheckedLockingBad");
    JsonNode root = json.readTree(ReportFormat.JSON.render(analysis, dir, "test"));
    JsonNode candidate = root.get("candidates").get(0);
    assertEquals("fixtures.DoubleCheckedLockingBad.helper", candidate.get("field").asText());
    assertEquals("src/main/java/fixtures/DoubleCheckedLockingBad.java", candidate.get("file").asText());
    assertEquals(5, candidate.get("line").asInt());
    assertTrue(candidate.get("confidence").asDouble() > 0 && candidate.get("confidence").asDouble() < 1);
    assertEquals("double-checked-locking", candidate.get("patterns").get(0).get("pattern").asText());
    assertTrue(candidate.get("reasons").get(0).asText().contains("helper()"));
    JsonNode access = candidate.get("accesses").get(1);
    assertEquals(10, access.get("line").asInt());
    assertEquals("read", access.get("kind").asText());
    assertEquals("this", access.get("locks").get(0).asText());
    assertEquals(analysis.files(), root.get("stats").get("files").asInt());
    assertTrue(root.get("stats").has("millis"));
  }

  @Test
  void sarifIsAValidMinimalRun() throws Exception {
    Analysis analysis = Fixtures.scan(dir, "BusyWaitBad", "LossyCounterBad");
    JsonNode root = json.readTree(ReportFormat.SARIF.render(analysis, dir, "test"));
    assertEquals("2.1.0", root.get("version").asText());
    JsonNode run = root.get("runs").get(0);
    JsonNode driver = run.get("tool").get("driver");
    assertEquals("racetriage", driver.get("name").asText());
    java.util.Set<String> ruleIds = new java.util.HashSet<>();
    driver.get("rules").forEach(rule -> ruleIds.add(rule.get("id").asText()));
    assertTrue(ruleIds.contains("busy-wait") && ruleIds.contains("lossy-counter"), ruleIds.toString());
    assertEquals(analysis.candidates().size(), run.get("results").size());
    for (JsonNode result : run.get("results")) {
      assertTrue(ruleIds.contains(result.get("ruleId").asText()));
      assertTrue(result.get("message").get("text").asText().startsWith("Candidate racy field fixtures."));
      JsonNode physical = result.get("locations").get(0).get("physicalLocation");
      assertTrue(physical.get("artifactLocation").get("uri").asText().startsWith("src/main/java/fixtures/"));
      assertTrue(physical.get("region").get("startLine").asInt() > 0);
    }
  }

  @Test
  void textHasOneReadableBlockPerCandidate() {
    Analysis analysis = Fixtures.scan(dir, "InconsistentSyncBad");
    String text = ReportFormat.TEXT.render(analysis, dir, "test");
    assertTrue(text.startsWith("fixtures.InconsistentSyncBad.name  (confidence "), text);
    assertTrue(text.contains("declared at src/main/java/fixtures/InconsistentSyncBad.java:5"), text);
    assertTrue(text.contains("src/main/java/fixtures/InconsistentSyncBad.java:12  write in set() without lock"), text);
    assertTrue(text.contains("1 candidate in "), text);
  }
}
