package dev.racetriage.cli;

import static dev.racetriage.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The destructive races of examples/racy-shapes, as a team meets them after a triage: {@code racetriage replay}
 * reproduces each from the store (it fails with the test's assertion and exits 1), the command {@code report} shows
 * runs as it is under {@code bash -c}, and a trusted-benign mark on one needs an override and still fails the next
 * triage unless {@code --allow-overridden}. One triage (trials only for the four destructive fields) serves every test.
 */
class DestructiveExamplesTest {
  private static final List<String> DESTRUCTIVE = List.of("dev.racetriage.examples.RacyInitLoop.x",
      "dev.racetriage.examples.Point.x", "dev.racetriage.examples.Point.y", "dev.racetriage.examples.BusyWait.result");

  @TempDir static Path dir;
  static Path project;

  @BeforeAll
  static void triage() throws Exception {
    project = Examples.copyRacyShapes(dir.resolve("racy-shapes"));
    CliRun triage = run("triage", project.toString(), "--field", String.join(",", DESTRUCTIVE));
    assertEquals(1, triage.exitCode(), triage.err());
  }

  @Test
  void eachDestructiveRaceReplaysToItsAssertionAndExits1() throws Exception {
    long before = replayDirs();
    for (String field : DESTRUCTIVE) {
      CliRun replay = run("replay", field, "--project", project.toString());
      assertEquals(1, replay.exitCode(), field + ": " + replay.out() + replay.err());
      assertTrue(replay.out().contains("The test FAILED:"), replay.out());
      assertTrue(replay.out().contains("AssertionFailedError: expected: <"), field + ": " + replay.out());
    }
    assertEquals(before + DESTRUCTIVE.size(), replayDirs(), "every replay ran in a fresh directory of its own");
  }

  private static long replayDirs() throws java.io.IOException {
    Path replays = project.resolve(".racetriage/replay");
    if (!Files.isDirectory(replays)) return 0;
    try (var dirs = Files.list(replays)) {
      return dirs.count();
    }
  }

  @Test
  void underScTheSameTestPasses() {
    JsonNode race = raceOf("dev.racetriage.examples.BusyWait.result");
    String test = race.path("tests").get(0).asText();
    CliRun replay = run("replay", "dev.racetriage.examples.BusyWait.result", "--project", project.toString(),
        "--test", test, "--heuristic", "sc");
    assertEquals(0, replay.exitCode(), replay.out() + replay.err());
    assertTrue(replay.out().contains("The test passed."), replay.out());
  }

  @Test
  void theCommandTheReportShowsRunsAsItIsInBash() throws Exception {
    String command = raceOf("dev.racetriage.examples.Point.y").path("replayCommand").asText();
    assertTrue(command.startsWith("racetriage replay "), command);
    // 'racetriage' on PATH is this build of the command line
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path launcher = bin.resolve("racetriage");
    Files.writeString(launcher, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
        + "' -cp '" + System.getProperty("java.class.path") + "' dev.racetriage.cli.RacetriageCommand \"$@\"\n");
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true);
    pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
    Process p = pb.start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(5, TimeUnit.MINUTES), output);
    assertEquals(1, p.exitValue(), output);
    assertTrue(output.contains("AssertionFailedError: expected: <1.0>"), output);
  }

  @Test
  void markingADestructiveRaceNeedsAnOverrideAndStillFailsTheTriage() {
    String x = "dev.racetriage.examples.RacyInitLoop.x";
    CliRun refused = run("mark", x, "--trusted-benign", "--note", "we accept it", "--project", project.toString());
    assertEquals(2, refused.exitCode(), refused.err());
    assertTrue(refused.err().contains("--override-destructive"), refused.err());
    assertEquals(0, run("mark", x, "--trusted-benign", "--note", "we accept it", "--override-destructive",
        "--project", project.toString()).exitCode());

    String[] again = {"triage", project.toString(), "--tests", "RacyInitLoopTest", "--field", x, "--heuristics",
        "sc,oldest"};
    CliRun failing = run(again);
    assertEquals(1, failing.exitCode(), failing.out() + failing.err());
    assertTrue(failing.err().contains(x + " is destructive and marked trusted-benign"), failing.err());
    assertTrue(failing.out().contains("destructive (trusted-benign)"), failing.out());
    String[] allowing = java.util.stream.Stream.concat(java.util.Arrays.stream(again),
        java.util.stream.Stream.of("--allow-overridden")).toArray(String[]::new);
    CliRun allowed = run(allowing);
    assertEquals(0, allowed.exitCode(), allowed.err());
  }

  private static JsonNode raceOf(String field) {
    CliRun report = run("report", project.toString(), "--format", "json", "--field", field);
    assertEquals(0, report.exitCode(), report.err());
    try {
      return new ObjectMapper().readTree(report.out()).path("races").get(0);
    } catch (Exception e) {
      throw new AssertionError(report.out(), e);
    }
  }
}
