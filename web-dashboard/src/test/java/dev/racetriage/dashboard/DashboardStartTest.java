package dev.racetriage.dashboard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.racetriage.store.runs.RunOwner;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What happens when the dashboard starts: a busy port, and the database it is given. */
class DashboardStartTest {
  /** A pid no process has (above Linux's pid_max), on this host. */
  static final RunOwner DEAD_OWNER = new RunOwner(Integer.MAX_VALUE - 1L, RunOwner.localHost(), Instant.EPOCH);

  @TempDir Path temp;

  @Test
  void servingADatabaseWritesNothingToIt() throws IOException {
    long orphan;
    Path dbFile;
    try (FixtureProject project = FixtureProject.create(temp, 5)) {
      dbFile = project.dbFile;
      // A run whose process is gone: opening the store for writing would mark it abandoned.
      orphan = project.store.runs().start("daemon", null, null, DEAD_OWNER).id();
    }
    byte[] before = Files.readAllBytes(dbFile);
    try (DashboardServer server = DashboardServer.open(dbFile, temp, DashboardOptions.defaults().withPort(0))) {
      HttpSession http = new HttpSession(server.url());
      JsonNode runs = http.getJson("/api/overview").get("recentRuns");
      assertEquals(orphan, runs.get(0).get("id").asLong());
      // shown as what it is, though a read-only store does not record it (the file stays as it was: checked below)
      assertEquals("abandoned", runs.get(0).get("status").asText(), runs::toString);
      assertEquals(8, http.getJson("/api/races").get("total").asInt());
      assertEquals(200, http.get("/api/export?format=sarif").statusCode());
      assertEquals(200, http.get(HttpSession.race("com.example.Cache.hash")).statusCode());
    }
    assertArrayEquals(before, Files.readAllBytes(dbFile), "the database file is unchanged");
  }

  @Test
  void theFirstTriageActionOpensTheDatabaseForWriting() {
    Path dbFile;
    try (FixtureProject project = FixtureProject.create(temp, 0)) {
      dbFile = project.dbFile;
    }
    try (DashboardServer server = DashboardServer.open(dbFile, temp, DashboardOptions.defaults().withPort(0))) {
      HttpSession http = new HttpSession(server.url());
      HttpResponse<String> marked = http.postAsPage(HttpSession.race("com.example.Cache.hash") + "/triage",
          Map.of("state", "trusted-benign", "note", "reviewed", "overrideDestructive", true));
      assertEquals(200, marked.statusCode(), marked.body());
      assertEquals("trusted-benign", http.getJson(HttpSession.race("com.example.Cache.hash"))
          .get("race").get("state").asText(), "the read-only store sees the write");
    }
  }

  @Test
  void aCorruptDatabaseRefusesToStartWithOneLine() throws IOException {
    Path dbFile;
    try (FixtureProject project = FixtureProject.create(temp, 300)) {
      dbFile = project.dbFile;
    }
    // Damage the last pages (race data), leaving the schema pages readable: only a check of every page sees it.
    byte[] bytes = Files.readAllBytes(dbFile);
    int pageSize = ((bytes[16] & 0xff) << 8) | (bytes[17] & 0xff);
    Arrays.fill(bytes, bytes.length - 2 * pageSize, bytes.length, (byte) 0x5a);
    Files.write(dbFile, bytes);
    DashboardStartException e = assertThrows(DashboardStartException.class,
        () -> DashboardServer.open(dbFile, temp, DashboardOptions.defaults().withPort(0)));
    assertTrue(e.getMessage().contains("is corrupt"), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    assertArrayEquals(bytes, Files.readAllBytes(dbFile), "nothing was written to it");
  }

  @Test
  void aBusyPortIsOneMessageWithoutALoggedError() throws IOException {
    try (FixtureProject project = FixtureProject.create(temp, 0);
        ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      ByteArrayOutputStream captured = new ByteArrayOutputStream();
      PrintStream err = System.err;
      DashboardStartException e;
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      try {
        e = assertThrows(DashboardStartException.class, () -> DashboardServer.start(project.store,
            DashboardOptions.defaults().withBind("127.0.0.1").withPort(taken.getLocalPort())));
      } finally {
        System.setErr(err);
      }
      assertTrue(e.getMessage().contains("in use") && e.getMessage().contains("--port"), e.getMessage());
      assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
      String log = captured.toString(StandardCharsets.UTF_8);
      assertEquals("", log, "nothing is logged before racetriage's own message");
    }
  }
}
