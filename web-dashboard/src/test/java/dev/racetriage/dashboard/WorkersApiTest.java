package dev.racetriage.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.queue.TrialItem;
import dev.racetriage.store.runs.Run;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workers page's API over a real SQLite file whose worker and queue rows are written through the store's own
 * repositories, as workers and a distributing triage write them. Times come from fixed clocks (the store's stamps
 * and the dashboard's "now"), so alive and stale are decided without waiting.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WorkersApiTest {
  static final Instant T0 = Instant.parse("2026-11-26T20:00:00Z");

  TriageStore store;
  DashboardServer server;
  HttpSession http;
  String busy;
  String lost;
  String done;
  long runId;
  TrialItem claimed;

  @BeforeAll
  void start(@TempDir Path dir) {
    Path db = TriageStore.defaultDatabase(dir);
    // a worker last heard from ten minutes ago: its machine went away
    try (TriageStore earlier = TriageStore.open(db, dir, Clock.fixed(T0.minus(Duration.ofMinutes(10)), ZoneOffset.UTC))) {
      lost = earlier.workers().register("ci-runner-7", 3131, dir.toString(), "0123456789abcdef");
      earlier.workers().heartbeat(lost, "WORKING", "fp-1", "running a unit of p.Cache.size");
    }
    store = TriageStore.open(db, dir, Clock.fixed(T0, ZoneOffset.UTC));
    busy = store.workers().register("build-box", 4242, dir.toString(), "abcdef0123456789");
    store.workers().heartbeat(busy, "WORKING", "fp-1", "running a unit of p.Cache.hash");
    done = store.workers().register("laptop", 77, dir.toString(), "abcdef0123456789");
    store.workers().heartbeat(done, "STOPPED", "fp-1", "stopped: no more work");

    Run run = store.runs().start("triage", "abcdef0123456789", null);
    runId = run.id();
    store.trialQueue().plan(runId, "fp-1", "p.Cache.hash", "p.CacheTest#hits", "{}");
    store.trialQueue().plan(runId, "fp-1", "p.Cache.size", "p.CacheTest#puts", "{}");
    store.trialQueue().plan(runId, "fp-1", "p.Stats.hits", "p.StatsTest#count", "{}");
    TrialItem first = store.trialQueue().claim(busy, "fp-1", runId, Duration.ofMinutes(5)).orElseThrow();
    assertTrue(store.trialQueue().complete(first.id(), busy, "{}"));
    claimed = store.trialQueue().claim(busy, "fp-1", runId, Duration.ofMinutes(5)).orElseThrow();

    // the dashboard looks 30 s after the stamps: within the 60 s a live worker has to report
    server = DashboardServer.start(store, DashboardOptions.defaults().withPort(0),
        Clock.fixed(T0.plusSeconds(30), ZoneOffset.UTC));
    http = new HttpSession(server.url());
  }

  @AfterAll
  void stop() {
    server.close();
    store.close();
  }

  @Test
  void workersAreAliveStaleOrStoppedWithWhatTheyDid() {
    JsonNode page = http.getJson("/api/workers");
    Map<String, JsonNode> byId = new HashMap<>();
    page.get("workers").forEach(w -> byId.put(w.get("id").asText(), w));
    assertEquals(3, byId.size(), page.toString());
    JsonNode working = byId.get(busy);
    assertEquals("build-box", working.get("host").asText());
    assertEquals(4242, working.get("pid").asLong());
    assertEquals("abcdef0123456789", working.get("commit").asText());
    assertEquals("alive", working.get("status").asText());
    assertEquals(1, working.get("itemsDone").asInt(), "the completed unit is counted");
    assertEquals(30, working.get("secondsSinceHeartbeat").asLong());
    assertEquals(T0.toString(), working.get("heartbeatAt").asText());
    assertEquals("stale", byId.get(lost).get("status").asText());
    assertEquals(630, byId.get(lost).get("secondsSinceHeartbeat").asLong());
    assertEquals("stopped", byId.get(done).get("status").asText());
    assertEquals(1, page.get("alive").asLong());
    assertEquals(60, page.get("presumedDeadAfterSeconds").asLong());
  }

  @Test
  void theQueueCountsEachStateAndListsTheUnitsClaimedNow() {
    JsonNode queue = http.getJson("/api/workers").get("queue");
    assertTrue(queue.get("runId").isNull());
    JsonNode counts = queue.get("counts");
    assertEquals(1, counts.get("pending").asLong());
    assertEquals(1, counts.get("claimed").asLong());
    assertEquals(1, counts.get("done").asLong());
    assertEquals(0, counts.get("failed").asLong());
    assertEquals(0, counts.get("skipped").asLong());
    assertEquals(1, queue.get("claimed").size(), queue.toString());
    JsonNode unit = queue.get("claimed").get(0);
    assertEquals(claimed.id(), unit.get("id").asLong());
    assertEquals(claimed.fieldKey(), unit.get("field").asText());
    assertEquals(claimed.testName(), unit.get("test").asText());
    assertEquals(busy, unit.get("claimedBy").asText());
    assertEquals(T0.plus(Duration.ofMinutes(5)).toString(), unit.get("leaseUntil").asText());

    JsonNode ofRun = http.getJson("/api/workers?run=" + runId).get("queue");
    assertEquals(runId, ofRun.get("runId").asLong());
    assertEquals(1, ofRun.at("/counts/claimed").asLong());
    JsonNode otherRun = http.getJson("/api/workers?run=" + (runId + 1)).get("queue");
    assertEquals(0, otherRun.at("/counts/pending").asLong() + otherRun.at("/counts/claimed").asLong());
    assertEquals(0, otherRun.get("claimed").size());
    HttpResponse<String> bad = http.get("/api/workers?run=latest");
    assertEquals(400, bad.statusCode());
    assertTrue(bad.body().contains("run must be a run") && bad.body().contains("latest"), bad.body());
  }

  @Test
  void theWorkersPageIsAShellWithItsScriptAndEveryPageLinksIt() {
    HttpResponse<String> page = http.get("/workers");
    assertEquals(200, page.statusCode());
    assertTrue(page.body().contains("<script type=\"module\" src=\"/assets/js/workers.js\"></script>"));
    assertEquals(200, http.get("/assets/js/workers.js").statusCode());
    for (String other : new String[] {"/", "/races", "/races/p.Cache.hash"}) {
      assertTrue(http.get(other).body().contains("<a href=\"/workers\""), other);
    }
  }
}
