package dev.racetriage.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One race row whose field key this version cannot parse (written with raw SQL into the real store file, as another
 * version or a hand edit would) is left out with a note; the list, the exports and the other races still work.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UnreadableRaceTest {
  static final String BAD_KEY = "com.example.Broken field";
  static final int GENERATED = 40;

  FixtureProject project;
  DashboardServer server;
  HttpSession http;

  @BeforeAll
  void start(@TempDir Path dir) throws SQLException {
    project = FixtureProject.create(dir, GENERATED);
    try (Connection sql = DriverManager.getConnection("jdbc:sqlite:" + project.dbFile);
        Statement statement = sql.createStatement()) {
      statement.execute("INSERT INTO field(field_key, class_name, member, is_array)"
          + " VALUES ('" + BAD_KEY + "', 'com.example', 'Broken field', 0)");
      // Destructive, so it sorts onto the first page next to the fixture's destructive race.
      statement.execute("INSERT INTO race(field_id, has_wr, has_ww, verdict, first_seen_at, last_seen_at)"
          + " VALUES (last_insert_rowid(), 1, 0, 'DESTRUCTIVE', 0, 0)");
    }
    server = DashboardServer.start(project.store,
        DashboardOptions.defaults().withPort(0).withPollInterval(Duration.ofMillis(200)));
    http = new HttpSession(server.url());
  }

  @AfterAll
  void stop() {
    server.close();
    project.close();
  }

  @Test
  void theRaceListLeavesTheRowOutWithANote() {
    JsonNode page = http.getJson("/api/races");
    assertEquals(GENERATED + 4, page.get("total").asInt(), "the total still counts it");
    assertEquals(1, page.get("unreadable").asInt());
    assertTrue(page.get("note").asText().contains("1 race could not be read"), page.toString());
    List<String> ids = ids(page);
    assertEquals(GENERATED + 3, ids.size());
    assertEquals("com.example.Cache.hash", ids.get(0));
    assertFalse(page.toString().contains(BAD_KEY));
  }

  @Test
  void everyPageOfTheListAnswers() {
    List<String> seen = new ArrayList<>();
    int unreadable = 0;
    for (int offset = 0; offset < GENERATED + 4; offset += 7) {
      JsonNode page = http.getJson("/api/races?limit=7&offset=" + offset);
      seen.addAll(ids(page));
      unreadable += page.get("unreadable").asInt();
    }
    assertEquals(GENERATED + 3, seen.size());
    assertEquals(1, unreadable);
  }

  @Test
  void theOtherRacesFiltersAndTheOverviewStillWork() {
    assertEquals(1, http.getJson("/api/races?verdict=qos").get("items").size());
    assertEquals(1, http.getJson("/api/races?class=com.example&verdict=destructive").get("unreadable").asInt());
    assertEquals(200, http.get(HttpSession.race("com.example.Cache.hash")).statusCode());
    assertEquals(200, http.get("/api/overview").statusCode());
    assertEquals(200, http.get("/races").statusCode());
  }

  @ParameterizedTest
  @ValueSource(strings = {"json", "csv", "sarif"})
  void exportsAnswerWithTheOtherRacesAndCountTheLeftOutOne(String format) {
    HttpResponse<String> response = http.get("/api/export?format=" + format);
    assertEquals(200, response.statusCode(), response.body());
    assertTrue(response.body().contains("com.example.Cache.hash"));
    assertTrue(response.body().contains("org.generated.Gen0039.f"), "pages after the bad row are exported too");
    assertEquals("1", response.headers().firstValue("X-Racetriage-Unreadable-Races").orElseThrow());
  }

  @Test
  void theSarifLogSaysRacesWereLeftOut() {
    JsonNode sarif = HttpSession.parse(http.get("/api/export?format=sarif").body());
    JsonNode notification = sarif.get("runs").get(0).get("invocations").get(0).get("toolExecutionNotifications").get(0);
    assertEquals("warning", notification.get("level").asText());
    assertTrue(notification.get("message").get("text").asText().contains("could not be read"));
    assertEquals(GENERATED + 3, sarif.get("runs").get(0).get("results").size());
  }

  private static List<String> ids(JsonNode page) {
    List<String> ids = new ArrayList<>();
    page.get("items").forEach(item -> ids.add(item.get("id").asText()));
    return ids;
  }
}
