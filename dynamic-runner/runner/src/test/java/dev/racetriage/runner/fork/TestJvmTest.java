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

  /**
   * A baseline JVM names its peak committed heap (in its summary, and in the {@code hung} line of a JVM its watchdog
   * halts); the detection JVM's heap is twice the largest of them plus 256 MB. The agent-less JVMs are the ones asked.
   */
  @Test
  void theBaselinesPeakHeapSizesTheDetectionJvmsHeap() throws Exception {
    ProjectFixtures.writeProjectWithTests(dir, """
          static byte[] kept;
          @Test @org.junit.jupiter.api.Order(1) void keepsNinetySixMegabytes() {
            kept = new byte[96 << 20];
            java.util.Arrays.fill(kept, (byte) 1);
          }
          @Test @org.junit.jupiter.api.Order(2) void hangs() throws Exception { Thread.sleep(Long.MAX_VALUE); }
          @Test @org.junit.jupiter.api.Order(3) void passesInTheNextJvm() { assertEquals(2, 1 + 1); }
        """);
    java.nio.file.Files.createDirectories(dir.resolve("src/test/resources"));
    java.nio.file.Files.writeString(dir.resolve("src/test/resources/junit-platform.properties"),
        "junit.jupiter.testmethod.order.default=org.junit.jupiter.api.MethodOrderer$OrderAnnotation\n");
    TestModule module = build(dir);
    TestJvm jvm = jvmFor(module, dir);

    TestRunResult baseline = new ContinuingTestRun(jvm).run(TestSelection.ALL, Optional.empty(),
        TestLimits.uniform(Duration.ofSeconds(3)), GENEROUS, dir.resolve("baseline"));

    assertEquals(2, baseline.attempts(), "the hung test halted the first JVM; a second one ran the rest");
    ResultsReader.BaselineHeap heap = ResultsReader.baselineHeap(baseline.resultsFiles())
        .orElseThrow(() -> new AssertionError("both JVMs named their peak"));
    assertTrue(heap.peakBytes() >= 96L << 20, "the kept array is in it: " + heap);
    assertTrue(heap.maxBytes() >= heap.peakBytes(), heap::toString);
    assertTrue(java.nio.file.Files.readString(baseline.resultsFiles().get(0)).contains("\"event\":\"hung\""));
    java.util.List<String> baselineCommand = jvm.command(TestSelection.ALL, Optional.empty(), dir.resolve("r.jsonl"));
    assertTrue(baselineCommand.contains("--heap-peak"), baselineCommand::toString);

    assertEquals(Optional.empty(), jvm.detectionHeapOption(), "no argLine limit, no baseline: the JVM's default");
    // a JVM that ended before its summary (System.exit in a test) may have used more: no limit is derived from it
    java.nio.file.Path torn = dir.resolve("torn.jsonl");
    java.nio.file.Files.writeString(torn, "{\"event\":\"started\",\"id\":\"x\"}\n");
    assertTrue(ResultsReader.baselineHeap(java.util.List.of(baseline.resultsFiles().get(1), torn)).isEmpty());

    TestJvm sized = jvm.withBaselineHeap(baseline);
    java.util.List<String> trial = sized.command(TestSelection.ALL, Optional.of("mode=jumble"), dir.resolve("t.jsonl"));
    assertTrue(trial.stream().noneMatch(a -> a.startsWith("-Xmx")), "a trial keeps the project's heap: " + trial);
    long limit = 2 * heap.peakBytes() + ArgLine.DETECTION_HEAP_ALLOWANCE;
    org.junit.jupiter.api.Assumptions.assumeTrue(limit < heap.maxBytes(),
        "a machine whose default heap is below " + limit + " bytes: no limit would be set");
    String expected = ArgLine.xmx(limit);
    assertEquals(Optional.of(expected), sized.detectionHeapOption());
    java.util.List<String> detect =
        sized.command(TestSelection.ALL, Optional.of("mode=detect"), dir.resolve("d.jsonl"));
    assertTrue(detect.contains(expected) && !detect.contains("--heap-peak"), detect::toString);
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
