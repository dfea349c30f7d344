package dev.racetriage.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.races.RaceSummary;
import dev.racetriage.store.races.TriageState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard in a real headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core from
 * {@code src/test/browser/dashboard-flow.mjs}: overview, filter, race page, mark trusted-benign. Screenshots go to
 * {@code target/screenshots/}. Without Chromium or node_modules the test is skipped — or fails under CI=true,
 * saying how to install them.
 */
class DashboardBrowserTest {
  static final String TOKEN = "browser-test-token-0123";
  static final Path BROWSER_DIR =
      Path.of(System.getProperty("racetriage.browserTestDir", "src/test/browser")).toAbsolutePath();
  static final Path SCREENSHOTS =
      Path.of(System.getProperty("racetriage.screenshots", "target/screenshots")).toAbsolutePath();
  static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("RACETRIAGE_CHROMIUM", "/usr/bin/chromium"));

  @Test
  void overviewFilterOpenMarkTrustedBenign(@TempDir Path dir) throws Exception {
    requireBrowserTools();
    try (FixtureProject project = FixtureProject.create(dir, 30);
        DashboardServer server = DashboardServer.start(project.store,
            DashboardOptions.defaults().withPort(0).withToken(TOKEN).withPollInterval(Duration.ofMillis(250)))) {
      Process node = new ProcessBuilder(
              "node", "dashboard-flow.mjs", server.url().toString(), SCREENSHOTS.toString(), TOKEN)
          .directory(BROWSER_DIR.toFile())
          .redirectErrorStream(true)
          .start();
      node.getOutputStream().close();
      byte[] output = node.getInputStream().readAllBytes();
      boolean finished = node.waitFor(3, TimeUnit.MINUTES);
      if (!finished) {
        node.destroyForcibly();
      }
      String log = new String(output, StandardCharsets.UTF_8);
      assertTrue(finished, "the browser flow did not finish:\n" + log);
      assertEquals(0, node.exitValue(), "the browser flow failed (screenshots in " + SCREENSHOTS + "):\n" + log);
      assertTrue(log.contains("\"ok\":true") && log.contains("\"dialogs\":[]"), log);

      RaceSummary cache = project.store.races().find(FixtureProject.CACHE_HASH).orElseThrow();
      assertEquals(TriageState.TRUSTED_BENIGN, cache.triageState(), "the click reached the store");
      assertEquals("browser-test", cache.mark().author());
      for (String shot : List.of("1-overview.png", "2-races-filtered.png", "3-race.png", "4-race-marked.png")) {
        assertTrue(Files.size(SCREENSHOTS.resolve(shot)) > 10_000, shot + " is missing or empty");
      }
    }
  }

  private static void requireBrowserTools() {
    List<String> missing = new ArrayList<>();
    if (!Files.isExecutable(CHROMIUM)) {
      missing.add(CHROMIUM + " (install Debian's Chromium: apt-get update && apt-get install -y chromium)");
    }
    if (!Files.isDirectory(BROWSER_DIR.resolve("node_modules/playwright-core"))) {
      missing.add("playwright-core (run: cd " + BROWSER_DIR + " && npm ci)");
    }
    if (!nodeRuns()) {
      missing.add("node on the PATH (Node.js 18 or later)");
    }
    if (missing.isEmpty()) {
      return;
    }
    String message = "the browser test needs " + String.join("; ", missing);
    if (System.getenv("CI") != null) {
      Assertions.fail(message + ". .ci/run installs them; on CI this test must run, not skip.");
    }
    Assumptions.abort(message);
  }

  private static boolean nodeRuns() {
    try {
      Process process = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
      process.getInputStream().readAllBytes();
      return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
