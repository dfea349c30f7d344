package dev.racetriage.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.racetriage.store.FieldKey;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** The JSON API against a real server on a free port over a real SQLite file written through the store. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardApiTest {
  static final int GENERATED = 120;

  Path dir;
  FixtureProject project;
  DashboardServer server;
  HttpSession http;

  @BeforeAll
  void start(@TempDir Path tempDir) {
    dir = tempDir;
    project = FixtureProject.create(dir, GENERATED);
    server = DashboardServer.start(project.store,
        DashboardOptions.defaults().withPort(0).withPollInterval(Duration.ofMillis(100)));
    http = new HttpSession(server.url());
  }

  @AfterAll
  void stop() {
    server.close();
    project.store.close();
  }

  @Test
  void listsRacesMostSevereFirstWithTotal() {
    JsonNode page = http.getJson("/api/races?limit=5");
    assertEquals(GENERATED + 3, page.get("total").asInt());
    assertEquals(5, page.get("items").size());
    JsonNode first = page.get("items").get(0);
    assertEquals("com.example.Cache.hash", first.get("id").asText());
    assertEquals("destructive", first.get("verdict").asText());
    assertEquals("open", first.get("state").asText());
    assertEquals(List.of("WR", "WW"), texts(first.get("kinds")));
    assertEquals("qos", page.get("items").get(1).get("verdict").asText());
  }

  @Test
  void filtersByVerdictStateClassAndText() {
    assertEquals(List.of("com.example.Stats.hits"), ids(http.getJson("/api/races?verdict=qos")));
    assertEquals(List.of("com.example.Flag$Inner.done"), ids(http.getJson("/api/races?state=trusted-benign")));
    assertEquals(List.of("com.example.Cache.hash", "com.example.Stats.hits", "com.example.Flag$Inner.done"),
        ids(http.getJson("/api/races?class=com.example")));
    assertEquals(List.of("com.example.Cache.hash"), ids(http.getJson("/api/races?q=CacheTest")));
    assertEquals(GENERATED, http.getJson("/api/races?verdict=pending&state=open").get("total").asInt());
  }

  @Test
  void paginatesThousandsStyle() {
    List<String> seen = new ArrayList<>();
    for (int offset = 0; offset < GENERATED; offset += 50) {
      JsonNode page = http.getJson("/api/races?verdict=pending&sort=field&offset=" + offset + "&limit=50");
      seen.addAll(ids(page));
    }
    assertEquals(GENERATED, seen.size());
    assertEquals(GENERATED, seen.stream().distinct().count());
    assertEquals("org.generated.Gen0000.f", seen.get(0));
    JsonNode reversed = http.getJson("/api/races?verdict=pending&sort=field&desc=true&limit=1");
    assertEquals(String.format("org.generated.Gen%04d.f", GENERATED - 1), ids(reversed).get(0));
  }

  @Test
  void badListParametersAre400WithTheAllowedValues() {
    HttpResponse<String> response = http.get("/api/races?verdict=terrible");
    assertEquals(400, response.statusCode());
    assertTrue(response.body().contains("destructive"), response.body());
    assertEquals(400, http.get("/api/races?sort=color").statusCode());
    assertEquals(400, http.get("/api/races?limit=0").statusCode());
  }

  @Test
  void raceDetailHasSourceTrialsEvidenceAndHistory() {
    JsonNode view = http.getJson(HttpSession.race("com.example.Cache.hash"));
    assertEquals("destructive", view.at("/race/verdict").asText());

    assertEquals(2, view.get("accesses").size(), "the read reached through two stacks is one access: " + view);
    JsonNode write = view.get("accesses").get(0);
    assertEquals("WRITE", write.get("type").asText());
    assertEquals("src/main/java/com/example/Cache.java", write.at("/source/path").asText());
    assertEquals(15, write.at("/source/focusLine").asInt());
    int focusIndex = 15 - write.at("/source/firstLine").asInt();
    assertEquals("      hash = h;", write.at("/source/lines").get(focusIndex).asText());

    JsonNode heuristics = view.get("heuristics");
    assertEquals("sc", heuristics.get(0).get("heuristic").asText());
    assertEquals(0, heuristics.get(0).get("failures").asInt());
    assertEquals("oldest", heuristics.get(1).get("heuristic").asText());
    assertEquals(2, heuristics.get(1).get("failures").asInt());
    assertEquals(0.5, heuristics.get(1).get("failureRate").asDouble(), 1e-9, "failed runs / runs");
    assertEquals(0.4, heuristics.get(1).get("staleReadRate").asDouble(), 1e-9, "stale reads / reads");
    assertEquals(121, heuristics.get(1).get("medianDurationMs").asLong(), "the median of 120..123 ms");

    assertEquals(List.of("sc", "oldest"), texts(view.at("/matrix/heuristics")));
    JsonNode cells = view.at("/matrix/rows").get(0).get("cells");
    assertEquals(4, cells.get(1).get("runs").asInt());
    assertEquals(2, cells.get(1).get("failures").asInt());

    assertTrue(view.get("firstFailure").asText().startsWith("org.opentest4j.AssertionFailedError"));
    assertTrue(view.get("replayCommand").asText().startsWith("racetriage replay com.example.Cache.hash --test "
        + "'com.example.CacheTest#concurrentHash' --heuristic oldest --seed 0 --project "), view.toPrettyString());
    assertTrue(view.get("javaCommand").asText().contains("--heuristic oldest --seed 0"), "the evidence's own line");
    assertTrue(view.get("lifecycle").isEmpty(), "never fixed");
    assertEquals("destructive", view.get("verdictHistory").get(0).get("verdict").asText());
    assertEquals(List.of("racy-lazy-init"), texts(view.at("/candidate/patterns")));
    assertEquals(List.of("100", "101", "102", "103"), texts(view.at("/durationsMs/sc")));
    assertEquals(4, view.at("/durationsMs/oldest").size());
  }

  @Test
  void unknownRaceIs404AndMalformedIdIs400() {
    assertEquals(404, http.get(HttpSession.race("com.example.Nope.field")).statusCode());
    assertEquals(400, http.get("/api/races/not-a-field-key").statusCode());
  }

  @Test
  void markTrustedBenignThenReopenWritesTheAuditLogAndMirrorFile() throws Exception {
    String race = HttpSession.race("com.example.Stats.hits");
    HttpResponse<String> marked = http.postAsPage(race + "/triage",
        Map.of("state", "trusted-benign", "note", "statistics only", "author", "bob"));
    assertEquals(200, marked.statusCode(), marked.body());
    JsonNode row = HttpSession.parse(marked.body());
    assertEquals("trusted-benign", row.get("state").asText());
    assertEquals("bob", row.at("/mark/author").asText());
    assertTrue(Files.readString(dir.resolve(".racetriage/trusted-benign.json")).contains("com.example.Stats.hits"));

    HttpResponse<String> comment = http.postAsPage(race + "/comments", Map.of("text", "checked with the team"));
    assertEquals(201, comment.statusCode(), comment.body());

    HttpResponse<String> reopened = http.postAsPage(race + "/triage", Map.of("state", "open", "author", "carol"));
    assertEquals(200, reopened.statusCode(), reopened.body());
    assertEquals("open", HttpSession.parse(reopened.body()).get("state").asText());

    JsonNode audit = http.getJson(race).get("audit");
    assertEquals(List.of("mark-trusted-benign", "comment", "reopen"), texts(audit, "action"));
    assertEquals(List.of("bob", "dashboard", "carol"), texts(audit, "author"));
    assertFalse(Files.readString(dir.resolve(".racetriage/trusted-benign.json")).contains("com.example.Stats.hits"));
  }

  @Test
  void markingADestructiveRaceNeedsAConfirmationNamingTheEvidence() {
    String race = HttpSession.race("com.example.Cache.hash");
    HttpResponse<String> refused = http.postAsPage(race + "/triage", Map.of("state", "trusted-benign", "note", "ok"));
    assertEquals(409, refused.statusCode(), refused.body());
    assertTrue(refused.body().contains("is destructive (2/4 runs failed under oldest"), refused.body());
    assertTrue(refused.body().contains("overrideDestructive"), refused.body());
    assertEquals("open", http.getJson(race).at("/race/state").asText());

    HttpResponse<String> confirmed = http.postAsPage(race + "/triage",
        Map.of("state", "trusted-benign", "note", "reviewed with the team", "overrideDestructive", true));
    assertEquals(200, confirmed.statusCode(), confirmed.body());
    JsonNode audit = http.getJson(race).get("audit");
    assertEquals("mark-overriding-destructive", audit.get(audit.size() - 1).get("action").asText());
    // the fixture is shared by the class's tests: leave the race open, as found
    assertEquals(200, http.postAsPage(race + "/triage", Map.of("state", "open")).statusCode());
  }

  @Test
  void triageNeedsANoteAndAKnownState() {
    String race = HttpSession.race("com.example.Cache.hash");
    assertEquals(400, http.postAsPage(race + "/triage", Map.of("state", "trusted-benign")).statusCode());
    assertEquals(400, http.postAsPage(race + "/triage", Map.of("state", "ignored", "note", "x")).statusCode());
    assertEquals(404, http.postAsPage(HttpSession.race("com.example.Nope.f") + "/triage",
        Map.of("state", "trusted-benign", "note", "x")).statusCode());
  }

  @Test
  void overviewCountsRunsAndActivity() {
    JsonNode overview = http.getJson("/api/overview");
    assertEquals(1, overview.at("/counts/byVerdict/destructive").asInt());
    assertEquals(GENERATED, overview.at("/counts/byVerdict/pending").asInt());
    assertTrue(overview.at("/counts/trustedBenign").asInt() >= 1);
    assertEquals("succeeded", overview.get("recentRuns").get(0).get("status").asText());
    assertEquals("abc123", overview.get("recentRuns").get(0).get("commitId").asText());
    assertTrue(texts(overview.get("recentActivity"), "race").contains("com.example.Flag$Inner.done"));
  }

  @Test
  void exportsJsonCsvAndSarif() {
    HttpResponse<String> json = http.get("/api/export?format=json&class=com.example");
    assertEquals(200, json.statusCode());
    assertTrue(json.headers().firstValue("Content-Disposition").orElse("").contains("racetriage-races.json"));
    JsonNode races = HttpSession.parse(json.body());
    assertEquals(3, races.size());
    assertEquals("src/main/java/com/example/Cache.java", races.get(0).at("/accesses/0/projectPath").asText());

    HttpResponse<String> csv = http.get("/api/export?format=csv&verdict=destructive");
    assertTrue(csv.headers().firstValue("Content-Type").orElse("").startsWith("text/csv"));
    String[] lines = csv.body().split("\r\n");
    assertEquals(2, lines.length, csv.body());
    assertTrue(lines[0].startsWith("field,verdict,state"));
    assertTrue(lines[1].startsWith("com.example.Cache.hash,destructive,open,WR+WW,1,8,"), lines[1]);

    JsonNode sarif = HttpSession.parse(http.get("/api/export?format=sarif&class=com.example").body());
    assertEquals("2.1.0", sarif.get("version").asText());
    JsonNode results = sarif.at("/runs/0/results");
    assertEquals(3, results.size());
    JsonNode destructive = results.get(0);
    assertEquals("destructive", destructive.get("ruleId").asText());
    assertEquals("error", destructive.get("level").asText());
    assertEquals("src/main/java/com/example/Cache.java",
        destructive.at("/locations/0/physicalLocation/artifactLocation/uri").asText());
    assertEquals(15, destructive.at("/locations/0/physicalLocation/region/startLine").asInt());
    JsonNode marked = results.get(2);
    assertEquals("com.example.Flag$Inner.done", marked.at("/properties/field").asText());
    assertEquals("accepted", marked.at("/suppressions/0/status").asText());
  }

  @Test
  void sourceEndpointServesProjectLines() {
    JsonNode excerpt = http.getJson("/api/source?path=src/main/java/com/example/Cache.java&line=4&context=1");
    assertEquals(List.of("public class Cache {", "  private int hash;", "  private final String value;"),
        texts(excerpt.get("lines")));
    assertEquals(3, excerpt.get("firstLine").asInt());
  }

  @Test
  void eventsStreamPushesTheCurrentStateThenChanges() throws Exception {
    try (BufferedReader events = openEvents()) {
      JsonNode first = nextProgress(events);
      long pending = first.at("/queue/pending").asLong();
      project.store.queue().enqueue(FieldKey.parse("com.example.New.field"), "changed: New.java", 5);
      // the first event after the change may be a poll that read the store just before it (seen in CI once)
      JsonNode changed = nextProgressWhere(events, e -> e.at("/queue/pending").asLong() != pending);
      assertEquals(pending + 1, changed.at("/queue/pending").asLong());
      long activity = changed.get("lastActivityId").asLong();
      project.store.marks().comment(FixtureProject.CACHE_HASH, "dana", "a teammate's comment");
      assertTrue(nextProgressWhere(events, e -> e.get("lastActivityId").asLong() != activity)
          .get("lastActivityId").asLong() > activity, "a triage action is an event");
    }
  }

  @Test
  void aNewClientIsNotSentTheSameSnapshotAgainByTheNextPolls() throws Exception {
    try (BufferedReader events = openEvents()) {
      long pending = nextProgress(events).at("/queue/pending").asLong();
      Thread.sleep(500); // five polls of the test server, the first of them after this client joined
      project.store.queue().enqueue(FieldKey.parse("com.example.Other.field"), "changed: Other.java", 5);
      assertEquals(pending + 1, nextProgress(events).at("/queue/pending").asLong(),
          "the event after the first one is the change, not the first snapshot again");
    }
  }

  private BufferedReader openEvents() throws Exception {
    HttpRequest request = HttpRequest.newBuilder(server.url().resolve("/api/events"))
        .header("Accept", "text/event-stream").GET().build();
    HttpResponse<InputStream> response =
        http.client.send(request, HttpResponse.BodyHandlers.ofInputStream());
    assertEquals(200, response.statusCode());
    assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"),
        () -> response.headers().toString());
    return new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
  }

  /** The next of at most 5 {@code progress} events that satisfies {@code wanted}; fails if none of them does. */
  private static JsonNode nextProgressWhere(BufferedReader events, java.util.function.Predicate<JsonNode> wanted)
      throws Exception {
    List<JsonNode> seen = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      JsonNode e = nextProgress(events);
      if (wanted.test(e)) {
        return e;
      }
      seen.add(e);
    }
    throw new AssertionError("no progress event showed the change: " + seen);
  }

  /** Reads lines until the next {@code progress} event's data; the test's timeout guards against a silent stream. */
  private static JsonNode nextProgress(BufferedReader events) throws Exception {
    return CompletableFuture.supplyAsync(() -> {
      try {
        String event = null;
        for (String line; (line = events.readLine()) != null; ) {
          if (line.startsWith("event:")) {
            event = line.substring(6).strip();
          } else if (line.startsWith("data:") && "progress".equals(event)) {
            return HttpSession.parse(line.substring(5).strip());
          }
        }
        throw new AssertionError("the event stream ended");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }).get(30, TimeUnit.SECONDS);
  }

  static List<String> ids(JsonNode page) {
    return texts(page.get("items"), "id");
  }

  static List<String> texts(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(node -> values.add(node.asText()));
    return values;
  }

  static List<String> texts(JsonNode array, String field) {
    List<String> values = new ArrayList<>();
    array.forEach(node -> values.add(node.get(field).asText()));
    return values;
  }
}
