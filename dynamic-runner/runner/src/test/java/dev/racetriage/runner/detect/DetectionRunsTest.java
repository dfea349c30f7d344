package dev.racetriage.runner.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.runner.fork.AgentJar;
import dev.racetriage.runner.fork.JUnitPlatformJars;
import dev.racetriage.runner.fork.TestJvm;
import dev.racetriage.runner.project.MavenProject;
import dev.racetriage.runner.project.ProjectBuilder;
import dev.racetriage.runner.project.ProjectFixtures;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Repeated detection on real forked JVMs. The fixture's one test races on {@code Box.early} every run and on
 * {@code Box.late} only in its second run in a JVM — a stand-in for a race whose accesses are unordered in some
 * schedules only (Peterson's {@code flag1}). One run misses {@code late}; three runs in one JVM find it, and say that
 * the second run did.
 */
class DetectionRunsTest {
  private static final Map<String, String> FILES = Map.of(
      "src/main/java/demo/Box.java", """
          package demo;
          public class Box {
            public int early;
            public int late;
            public boolean written;
          }
          """,
      "src/test/java/demo/RaceTest.java", """
          package demo;
          import org.junit.jupiter.api.Test;
          class RaceTest {
            static int runs;
            /** A worker writes; the test thread spins on a plain flag (no happens-before) and reads: a WR race. */
            static void raceOn(Box box, boolean late) throws Exception {
              Thread worker = new Thread(() -> {
                if (late) box.late = 1; else box.early = 1;
                box.written = true;
              });
              worker.start();
              while (!box.written) Thread.onSpinWait();
              int seen = late ? box.late : box.early;
              worker.join();
            }
            @Test void racesOnLateOnlyInItsSecondRun() throws Exception {
              runs++;
              raceOn(new Box(), false);
              if (runs == 2) raceOn(new Box(), true);
            }
          }
          """);

  @TempDir static Path dir;
  private static TestJvm jvm;

  @BeforeAll
  static void buildOnce() throws Exception {
    ProjectFixtures.writeProject(dir, FILES);
    MavenProject project = new ProjectBuilder(Duration.ofMinutes(5)).build(dir);
    jvm = new TestJvm(project.modules().get(0), JUnitPlatformJars.launcherFor(project.modules().get(0), dir),
        AgentJar.locate());
  }

  private static Set<String> raced(Path report) throws Exception {
    DetectionReport read = DetectionReport.read(report);
    assertTrue(read.complete(), "the agent wrote its report when the JVM exited");
    Set<String> fields = new TreeSet<>();
    read.races().forEach(r -> fields.add(r.fieldKey()));
    return fields;
  }

  @Test
  void threeRunsInOneJvmFindTheRaceOnlyTheSecondRunShowsAndSaySo() throws Exception {
    Path out = dir.resolve("repeated");
    Path report = out.resolve("races.jsonl");

    DetectionRuns runs = DetectionRuns.repeated(jvm, "mode=detect;out=" + report, 3, Duration.ofMinutes(2), out);

    assertEquals(3, runs.runs());
    assertNull(runs.stopReason());
    assertFalse(runs.timedOut());
    assertEquals(0, runs.exitCode());
    assertTrue(raced(report).containsAll(Set.of("demo.Box.early", "demo.Box.late")), () -> "report: " + report);
    assertEquals(1, runs.firstRun().get("demo.Box.early"));
    assertEquals(2, runs.firstRun().get("demo.Box.late"), "the launcher named it after the second run");
    assertTrue(runs.foundAfter(1) >= 1, () -> "late is a race only a repeat found: " + runs.firstRun());
  }

  @Test
  void aSingleRunMissesIt() throws Exception {
    Path out = dir.resolve("single");
    Path report = out.resolve("races-1.jsonl");

    DetectionRuns runs = DetectionRuns.continuing(jvm, dev.racetriage.runner.fork.TestSelection.ALL,
        n -> "mode=detect;out=" + out.resolve("races-" + n + ".jsonl"), dev.racetriage.runner.fork.TestLimits.NONE,
        Duration.ofMinutes(2), out, Set.of()).runs();

    assertEquals(1, runs.runs());
    Set<String> fields = raced(report);
    assertTrue(fields.contains("demo.Box.early"), fields::toString);
    assertFalse(fields.contains("demo.Box.late"), fields::toString);
  }
}
