package dev.racetriage.runner.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.runner.project.MavenProject;
import dev.racetriage.runner.project.ProjectBuilder;
import dev.racetriage.runner.project.ProjectFixtures;
import dev.racetriage.runner.project.TestModule;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Forks real test JVMs on real Maven projects through the in-JVM launcher. */
class TestJvmTest {
  private static final Duration GENEROUS = Duration.ofMinutes(2);

  @TempDir Path dir;

  private TestJvm jvmFor(TestModule module, Path root) throws Exception {
    return new TestJvm(module, JUnitPlatformJars.launcherFor(module, root), AgentJar.locate());
  }

  private TestModule build(Path root) throws Exception {
    MavenProject project = new ProjectBuilder(Duration.ofMinutes(5)).build(root);
    assertEquals(1, project.modules().size(), project.modules()::toString);
    return project.modules().get(0);
  }

  @Test
  void runsEveryTestOfTheExamplesWithoutTheAgent() throws Exception {
    Path root = ProjectFixtures.copyRacyShapes(dir.resolve("racy-shapes"));
    TestModule module = build(root);

    TestRunResult run = jvmFor(module, root).run(TestSelection.ALL, Optional.empty(), GENEROUS, dir.resolve("run"));

    assertTrue(run.completed(), () -> "launcher did not complete; see " + run.log());
    assertEquals(11, run.outcomes().size(), run.outcomes()::toString);
    assertTrue(run.outcomes().stream().allMatch(o -> o.status() == TestOutcome.Status.PASSED), run.outcomes()::toString);
    TestOutcome point = run.outcomes().stream()
        .filter(o -> "dev.racetriage.examples.PointTest".equals(o.className())).findFirst().orElseThrow();
    assertEquals("bothThreadsSeeSlopeOne", point.method());

    // the unique id selects exactly that test in a fresh JVM
    TestRunResult one = jvmFor(module, root).run(TestSelection.of(point.id()), Optional.empty(), GENEROUS, dir.resolve("one"));
    assertEquals(1, one.outcomes().size(), one.outcomes()::toString);
    assertEquals(point.id(), one.outcomes().get(0).id());
  }

  @Test
  void reportsFailuresHangsAndSystemExitPerTest() throws Exception {
    ProjectFixtures.writeProjectWithTests(dir, """
          @Test void passes() { assertEquals(2, 1 + 1); }
          @Test void fails() { assertEquals(3, 1 + 1, "arithmetic"); }
          @Test void throwsUnexpectedly() { throw new IllegalStateException("boom <b>"); }
        """);
    TestModule module = build(dir);

    TestRunResult run = jvmFor(module, dir).run(TestSelection.ALL, Optional.empty(), GENEROUS, dir.resolve("run"));

    Map<String, TestOutcome> byMethod = run.outcomes().stream().collect(Collectors.toMap(TestOutcome::method, o -> o));
    assertEquals(TestOutcome.Status.PASSED, byMethod.get("passes").status());
    assertEquals(TestOutcome.Status.FAILED, byMethod.get("fails").status());
    assertEquals("org.opentest4j.AssertionFailedError", byMethod.get("fails").failure().type());
    assertTrue(byMethod.get("fails").failure().message().contains("arithmetic"));
    TestOutcome thrown = byMethod.get("throwsUnexpectedly");
    assertEquals("java.lang.IllegalStateException", thrown.failure().type());
    assertEquals("boom <b>", thrown.failure().message());
    assertTrue(thrown.failure().stack().contains("BehaviourTest.throwsUnexpectedly"), thrown.failure().stack());
    assertTrue(run.anyFailed());
  }

  @Test
  void aHangingTestIsKilledAtTheDeadlineAndNamed() throws Exception {
    ProjectFixtures.writeProjectWithTests(dir, """
          @Test void hangs() throws Exception { new java.util.concurrent.CountDownLatch(1).await(); }
        """);
    TestModule module = build(dir);

    TestRunResult run = jvmFor(module, dir).run(TestSelection.ALL, Optional.empty(), Duration.ofSeconds(8), dir.resolve("run"));

    assertTrue(run.timedOut());
    assertFalse(run.completed());
    assertEquals(1, run.outcomes().size(), run.outcomes()::toString);
    assertEquals(TestOutcome.Status.TIMED_OUT, run.outcomes().get(0).status());
    assertEquals("hangs", run.outcomes().get(0).method());
  }

  @Test
  void aTrialServerStopsAtATestsLimitAndSaysWhichTestHung() throws Exception {
    ProjectFixtures.writeProjectWithTests(dir, """
          @Test void hangs() throws Exception { Thread.sleep(Long.MAX_VALUE); }
        """);
    TestModule module = build(dir);
    Path results = dir.resolve("serve/results.jsonl");
    java.nio.file.Files.createDirectories(results.getParent());

    try (TrialServerProcess server = jvmFor(module, dir).serve(TestSelection.ALL, "mode=detect;out=" + dir.resolve("serve/races.jsonl"),
        results, dir.resolve("serve/output.log"), GENEROUS, TestLimits.uniform(Duration.ofSeconds(2)))) {
      TrialServerProcess.Reply reply = server.repeat(GENEROUS);
      assertEquals(new TrialServerProcess.Reply.Ended(4), reply);
    }
    String hung = java.nio.file.Files.readAllLines(results).stream().filter(l -> l.contains("\"event\":\"hung\""))
        .findFirst().orElseThrow();
    assertTrue(hung.contains("\"method\":\"hangs\""), hung);
    assertTrue(hung.contains("Thread.sleep"), hung);
  }

  @Test
  void aTestThatCallsSystemExitIsReportedAsCrashed() throws Exception {
    ProjectFixtures.writeProjectWithTests(dir, """
          @Test void exits() { System.exit(7); }
        """);
    TestModule module = build(dir);

    TestRunResult run = jvmFor(module, dir).run(TestSelection.ALL, Optional.empty(), GENEROUS, dir.resolve("run"));

    assertFalse(run.completed());
    assertEquals(7, run.exitCode());
    TestOutcome exits = run.outcomes().get(0);
    assertEquals(TestOutcome.Status.CRASHED, exits.status());
    assertNotNull(exits.id());
  }
}
