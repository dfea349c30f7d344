package dev.racetriage.cli;

import static dev.racetriage.cli.CliRun.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.TriageStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code racetriage dashboard}: its errors (one line, exit code) and a real start, request and stop. */
class DashboardCommandTest {



  private static Path projectWithDatabase(Path dir) {
    try (TriageStore store = TriageStore.openProject(dir)) {
      return store.file();
    }
  }

  @Test
  void missingDatabaseIsAOneLineErrorWithExit1(@TempDir Path dir) {
    CliRun result = run("dashboard", "--db", dir.resolve("nope.db").toString());
    assertEquals(1, result.exitCode());
    assertTrue(result.err().startsWith("racetriage: no triage database at "), result.err());
    assertTrue(result.err().contains("racetriage triage"), result.err());
    assertEquals(1, result.err().strip().lines().count(), result.err());
  }

  @Test
  void corruptDatabaseIsAOneLineErrorWithExit1(@TempDir Path dir) throws IOException {
    Path db = dir.resolve("triage.db");
    Files.writeString(db, "this is not SQLite at all, just text that happens to be long enough to look like a file");
    CliRun result = run("dashboard", "--db", db.toString(), "--port", "0");
    assertEquals(1, result.exitCode(), result.err());
    assertTrue(result.err().startsWith("racetriage: "), result.err());
    assertTrue(result.err().contains(db.toString()), result.err());
    assertEquals(1, result.err().strip().lines().count(), result.err());
  }

  @Test
  void eightKilobytesOfGarbageInsideTheDatabaseAreRefusedBeforeServing(@TempDir Path dir) throws Exception {
    Path db = StoreFaults.damagedDatabase(dir);
    byte[] before = Files.readAllBytes(db);
    CliRun result = run("dashboard", "--db", db.toString(), "--port", "0");
    assertEquals(1, result.exitCode(), result.err());
    assertEquals(1, result.err().strip().lines().count(), result.err());
    assertTrue(result.err().startsWith("racetriage: " + db + " is corrupt ("), result.err());
    assertEquals("", result.out(), "nothing was served");
    assertArrayEquals(before, Files.readAllBytes(db));
  }

  /** The dashboard only reads: a database nobody may write is served as it is (a triage action then says why not). */
  @Test
  void aReadOnlyDatabaseIsServed(@TempDir Path dir) throws Exception {
    Path db = projectWithDatabase(dir);
    try (AutoCloseable readOnly = StoreFaults.readOnly(db)) {
      assertEquals(0, DashboardServing.serveUntilStopped(db, banner -> assertTrue(banner.contains("http://127.0.0.1:"), banner)));
    }
  }

  @Test
  void publicBindWithoutTokenIsRefused(@TempDir Path dir) {
    Path db = projectWithDatabase(dir);
    CliRun result = run("dashboard", "--db", db.toString(), "--bind", "0.0.0.0", "--port", "0");
    assertEquals(2, result.exitCode(), result.err());
    assertTrue(result.err().contains("--token"), result.err());
  }

  @Test
  void helpNamesTheTokenVariable() {
    CliRun result = run("dashboard", "--help");
    assertEquals(0, result.exitCode());
    assertTrue(result.out().contains("RACETRIAGE_DASHBOARD_TOKEN"), result.out());
  }

  @Test
  void portInUseIsAClearError(@TempDir Path dir) throws IOException {
    Path db = projectWithDatabase(dir);
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      CliRun result = run("dashboard", "--db", db.toString(), "--port", Integer.toString(taken.getLocalPort()));
      assertEquals(1, result.exitCode(), result.err());
      assertTrue(result.err().contains("in use") && result.err().contains("--port"), result.err());
    }
  }

  @Test
  void servesUntilInterruptedAndPrintsTheUrl(@TempDir Path dir) throws Exception {
    Path db = projectWithDatabase(dir);
    int exit = DashboardServing.serveUntilStopped(db, banner -> {
      Matcher url = Pattern.compile("http://127\\.0\\.0\\.1:\\d+/").matcher(banner);
      assertTrue(url.find(), banner);
      assertTrue(banner.contains(dir.toRealPath().toString()) || banner.contains(dir.toString()), banner);
      HttpResponse<String> overview = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(url.group() + "api/overview")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, overview.statusCode(), overview.body());
      assertTrue(overview.body().contains("\"counts\""), overview.body());
    });
    assertEquals(0, exit, "interrupting the command stops the server and exits 0");
  }
}
