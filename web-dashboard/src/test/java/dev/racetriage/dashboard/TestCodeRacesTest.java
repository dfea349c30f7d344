package dev.racetriage.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.AccessType;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Test-code races (every access in a file under {@code src/test}) on a real server over a real SQLite file: labelled
 * in the list, the race page, the exports and the overview, and filtered by {@code scope}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestCodeRacesTest {
  static final String PRODUCT = "com.example.Cache.hash";
  static final String MIXED = "com.example.Cache.size";
  static final String LIBRARY = "com.example.Cache.lib";
  static final String TEST = "com.example.CacheTest.stop";

  Path dir;
  TriageStore store;
  DashboardServer server;
  HttpSession http;

  @BeforeAll
  void start(@TempDir Path tempDir) throws Exception {
    dir = tempDir;
    Files.createDirectories(dir.resolve("src/main/java/com/example"));
    Files.createDirectories(dir.resolve("src/test/java/com/example"));
    Files.writeString(dir.resolve("src/main/java/com/example/Cache.java"), "package com.example;\nclass Cache {}\n");
    Files.writeString(dir.resolve("src/test/java/com/example/CacheTest.java"),
        "package com.example;\nclass CacheTest {}\n");
    store = TriageStore.open(TriageStore.defaultDatabase(dir), dir);
    Run run = store.runs().start("triage", null, null);
    race(run, PRODUCT, Verdict.DESTRUCTIVE, site("Cache.java", "com.example.Cache.get(Cache.java:5)"));
    // written by the test, read by the product: the product's race
    race(run, MIXED, Verdict.BENIGN, site("CacheTest.java", "com.example.CacheTest.fill(CacheTest.java:9)"),
        site("Cache.java", "com.example.Cache.size(Cache.java:7)"));
    // a file the project does not hold may be anyone's code: not test code
    race(run, LIBRARY, Verdict.BENIGN, site("Lib.java", "org.lib.Lib.touch(Lib.java:3)"));
    race(run, TEST, Verdict.DESTRUCTIVE, site("CacheTest.java", "com.example.CacheTest.spin(CacheTest.java:4)"),
        site("CacheTest.java", "com.example.CacheTest$1.run(CacheTest.java:12)"));
    store.runs().finish(run.id(), RunStatus.SUCCEEDED, "4 races", null);
    server = DashboardServer.start(store, DashboardOptions.defaults().withPort(0)
        .withPollInterval(Duration.ofMillis(100)));
    http = new HttpSession(server.url());
  }

  @AfterAll
  void stop() {
    server.close();
    store.close();
  }

  @Test
  void theListLabelsTestCodeRacesAndTheScopeSeparatesThem() {
    JsonNode all = http.getJson("/api/races?sort=field");
    for (JsonNode row : all.get("items")) {
      assertEquals(row.get("id").asText().equals(TEST), row.get("testCode").asBoolean(), row.toString());
    }
    assertTrue(ids(http.getJson("/api/races?scope=test")).contains(TEST));
    JsonNode product = http.getJson("/api/races?scope=product&sort=field");
    assertEquals(List.of(PRODUCT, LIBRARY, MIXED), ids(product));
    assertEquals(3, product.get("total").asInt());
    JsonNode second = http.getJson("/api/races?scope=product&sort=field&offset=1&limit=1");
    assertEquals(List.of(LIBRARY), ids(second));
    assertEquals(3, second.get("total").asInt());
    assertEquals(List.of(TEST), ids(http.getJson("/api/races?scope=test&verdict=destructive")));
    assertEquals(List.of(PRODUCT), ids(http.getJson("/api/races?scope=product&verdict=destructive")));
    HttpResponse<String> bad = http.get("/api/races?scope=tests");
    assertEquals(400, bad.statusCode());
    assertTrue(bad.body().contains("product") && bad.body().contains("src/test"), bad.body());
  }

  @Test
  void theRacePageTheOverviewAndTheExportsSayTestCode() {
    assertTrue(http.getJson(HttpSession.race(TEST)).at("/race/testCode").asBoolean());
    assertFalse(http.getJson(HttpSession.race(MIXED)).at("/race/testCode").asBoolean());

    JsonNode counts = http.getJson("/api/overview").get("counts");
    assertEquals(2, counts.at("/byVerdict/destructive").asInt(), "the counts are of every race");
    // (another test may have added a pending test-code race)
    assertEquals(http.getJson("/api/races?scope=test").get("total").asInt(), counts.at("/testCode/total").asInt(),
        counts.toString());
    assertEquals(1, counts.at("/testCode/byVerdict/destructive").asInt(), counts.toString());

    JsonNode json = HttpSession.parse(http.get("/api/export?format=json&scope=test&verdict=destructive").body());
    assertEquals(1, json.size());
    assertTrue(json.get(0).get("testCode").asBoolean());
    String csv = http.get("/api/export?format=csv&sort=field").body();
    assertTrue(csv.split("\r\n")[0].endsWith(",test_code"), csv);
    assertTrue(csv.contains("\r\n" + TEST + ",") && csv.split(TEST)[1].split("\r\n")[0].endsWith(",true"), csv);
    JsonNode results = HttpSession.parse(http.get("/api/export?format=sarif").body()).at("/runs/0/results");
    for (JsonNode result : results) {
      boolean test = result.at("/properties/field").asText().startsWith("com.example.CacheTest.");
      assertEquals(test, result.at("/properties/testCode").asBoolean());
      assertEquals(test, result.at("/properties/tags").toString().contains("test-code"));
    }
  }

  @Test
  void aRaceRecordedLaterByAnotherProcessIsClassifiedToo() {
    String later = "com.example.CacheTest.later";
    try (TriageStore other = TriageStore.open(TriageStore.defaultDatabase(dir), dir)) {
      other.races().upsert(new Race(FieldKey.parse(later), Set.of(RaceKind.WW),
          List.of(site("CacheTest.java", "com.example.CacheTest.later(CacheTest.java:20)")), Set.of("t")), null);
    }
    assertTrue(ids(http.getJson("/api/races?scope=test")).contains(later));
  }

  private void race(Run run, String key, Verdict verdict, AccessSite... sites) {
    FieldKey field = FieldKey.parse(key);
    store.races().upsert(new Race(field, Set.of(RaceKind.WR), List.of(sites), Set.of("com.example.CacheTest#t")),
        run.id());
    store.verdicts().set(field, verdict, Evidence.of(verdict.label() + " by fixture"), run.id());
  }

  private static AccessSite site(String file, String frame) {
    int line = Integer.parseInt(frame.replaceAll(".*:(\\d+)\\)$", "$1"));
    return new AccessSite(AccessType.READ, "t", file, line, List.of(frame));
  }

  private static List<String> ids(JsonNode page) {
    List<String> ids = new ArrayList<>();
    page.get("items").forEach(item -> ids.add(item.get("id").asText()));
    return ids;
  }
}
