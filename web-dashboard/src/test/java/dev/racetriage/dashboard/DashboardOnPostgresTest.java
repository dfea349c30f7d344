package dev.racetriage.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TestEngine;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.engine.StoreLocation;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The team dashboard: served from a PostgreSQL store that other processes write to at the same time, read through
 * HTTP, and marking through it like on a file. Runs against {@code RACETRIAGE_TEST_PG_URL} (skipped without it,
 * failed under CI).
 */
class DashboardOnPostgresTest {
  @TempDir Path project;

  @Test
  void servesTheSharedStoreAndSeesWhatOtherProcessesWrite() {
    TestEngine.serverUrl();
    StoreLocation location = TestEngine.POSTGRESQL.location(project, "team");
    try (FixtureProject fixture = FixtureProject.create(project, 2, location)) {
      try (DashboardServer server = DashboardServer.open(location, project, DashboardOptions.defaults().withPort(0))) {
        HttpSession http = new HttpSession(server.url());
        assertEquals(5, http.getJson("/api/races").get("total").asInt());
        JsonNode race = http.getJson(HttpSession.race("com.example.Cache.hash"));
        assertEquals("destructive", race.get("race").get("verdict").asText(), race::toString);
        assertEquals("Cache.java", race.get("accesses").get(0).get("file").asText(), race::toString);

        // another process (a worker, CI) writes while the dashboard serves: the next read shows it
        fixture.store.races().upsert(new Race(FieldKey.parse("com.example.Late.flag"), Set.of(RaceKind.WW),
            List.of(), Set.of("com.example.LateTest#t")), fixture.run.id());
        assertEquals(6, http.getJson("/api/races").get("total").asInt());

        HttpResponse<String> marked = http.postAsPage(HttpSession.race("com.example.Stats.hits") + "/triage",
            Map.of("state", "open", "note", "looked again"));
        assertEquals(200, marked.statusCode(), marked.body());
      }
      try (TriageStore reader = TriageStore.openReadOnly(location, project)) {
        assertTrue(reader.marks().find(FixtureProject.STATS_HITS).isEmpty(),
            "the dashboard's reopen is in the shared store");
      }
    }
  }
}
