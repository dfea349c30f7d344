package dev.racetriage.cli;

import static dev.racetriage.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racetriage.store.TriageStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The race lifecycle as a team lives it, on a copy of examples/racy-shapes: BusyWait.result is destructive; made
 * volatile, a triage no longer sees it while its test runs and passes, so it is fixed — gone from the report, the
 * dashboard's counts and exports and the editor's diagnostics; reverted, it comes back as a regression. The triages
 * are narrowed to BusyWaitTest (and the first one's trials to the field) to keep the test short.
 */
class RaceLifecycleEndToEndTest {
  private static final String RESULT = "dev.racetriage.examples.BusyWait.result";
  private static final String DONE = "dev.racetriage.examples.BusyWait.done";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void aFixedRaceLeavesEveryViewAndComesBackAsARegression() throws Exception {
    Path project = Examples.copyRacyShapes(dir.resolve("racy-shapes"));
    Path source = project.resolve("src/main/java/dev/racetriage/examples/BusyWait.java");
    String original = Files.readString(source);

    CliRun first = run("triage", project.toString(), "--tests", "BusyWaitTest", "--field", RESULT,
        "--heuristics", "sc,oldest-but-different");
    assertEquals(1, first.exitCode(), "a destructive race fails the triage: " + first.err());
    JsonNode open = race(report(project), RESULT);
    assertEquals("destructive", open.path("race").path("verdict").asText(), () -> first.out() + first.err());
    assertEquals("open", open.path("race").path("state").asText());

    Files.writeString(source, original.replace("\n  long result;", "\n  volatile long result;"));
    CliRun fixedRun = run("triage", project.toString(), "--tests", "BusyWaitTest", "--detect-only");
    assertEquals(0, fixedRun.exitCode(), fixedRun.err());
    assertTrue(fixedRun.err().contains("Fixed: " + RESULT), fixedRun.err());

    assertTrue(race(report(project), RESULT).isMissingNode(), "the report's open races leave it out");
    JsonNode fixed = race(report(project, "--state", "fixed"), RESULT);
    assertEquals("fixed", fixed.path("race").path("state").asText());
    assertTrue(fixed.path("fixed").path("runId").asLong() > 0, fixed::toPrettyString);
    assertTrue(fixed.path("fixed").path("note").asText().contains("BusyWaitTest#consumerSeesTheProducedSum"));
    assertFalse(run("report", project.toString()).out().contains(RESULT), "nor does the table");

    Path db = TriageStore.defaultDatabase(project);
    assertEquals(0, DashboardServing.serveUntilStopped(db, banner -> {
      String base = url(banner);
      JsonNode counts = JSON.readTree(get(base + "api/overview")).path("counts");
      assertEquals(0, counts.path("byVerdict").path("destructive").asLong(), counts::toPrettyString);
      assertEquals(1, counts.path("fixed").asLong(), counts::toPrettyString);
      assertFalse(get(base + "api/export?format=csv").contains(RESULT), "the CSV export omits it");
      assertFalse(get(base + "api/export?format=sarif").contains(RESULT), "the SARIF export omits it");
      assertTrue(get(base + "api/export?format=csv").contains(DONE), "the race still there is exported");
    }));
    assertEquals(Set.of(DONE), EditorView.verdictFields(project, source, DONE),
        "the editor (the language server over JSON-RPC) shows no verdict on the fixed field");

    Files.writeString(source, original);
    CliRun back = run("triage", project.toString(), "--tests", "BusyWaitTest", "--detect-only");
    assertTrue(back.err().contains("Regressed: " + RESULT), back.err());
    JsonNode regressed = race(report(project), RESULT);
    assertEquals("regressed", regressed.path("race").path("state").asText());
    assertEquals("destructive", regressed.path("race").path("verdict").asText(), "with its evidence");
    assertTrue(race(report(project, "--state", "regressed"), RESULT).isObject());
    assertTrue(race(report(project, "--state", "open"), RESULT).isObject(), "a regression is open");
    assertEquals(Set.of(DONE, RESULT), EditorView.verdictFields(project, source, DONE));
  }

  private static JsonNode report(Path project, String... filters) throws Exception {
    List<String> args = new ArrayList<>(List.of("report", project.toString(), "--format", "json"));
    args.addAll(List.of(filters));
    CliRun r = run(args.toArray(String[]::new));
    assertEquals(0, r.exitCode(), r.err());
    return JSON.readTree(r.out());
  }

  private static JsonNode race(JsonNode report, String field) {
    for (JsonNode race : report.path("races")) {
      if (race.path("race").path("id").asText().equals(field)) return race;
    }
    return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
  }

  private static String url(String banner) {
    Matcher url = Pattern.compile("http://127\\.0\\.0\\.1:\\d+/").matcher(banner);
    assertTrue(url.find(), banner);
    return url.group();
  }

  private static String get(String url) throws Exception {
    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    return response.body();
  }
}
