package dev.racetriage.runner.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.runner.project.MavenProject;
import dev.racetriage.runner.project.ProjectBuilder;
import dev.racetriage.runner.project.ProjectFixtures;
import dev.racetriage.runner.project.TestModule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hung tests in real JVMs: the watchdog stops the JVM at the test's limit, and a fresh JVM runs the rest. Whatever
 * order JUnit runs the classes in, every test ends with one outcome. (The limits are small so the test is quick; only
 * outcomes are asserted, never times.)
 */
class ContinuingTestRunTest {
  @TempDir static Path dir;
  private static TestModule module;

  @BeforeAll
  static void build() throws Exception {
    ProjectFixtures.writeSurefireProject(dir, ProjectFixtures.JUNIT5, "", "", Map.of(
        "src/test/java/demo/HangsTest.java", """
            package demo;
            import org.junit.jupiter.api.Test;
            import org.junit.jupiter.params.ParameterizedTest;
            import org.junit.jupiter.params.provider.ValueSource;
            class HangsTest {
              @Test void sleepsForever() throws Exception { Thread.sleep(Long.MAX_VALUE); }
              @Test void passesBesideIt() {}
              @ParameterizedTest @ValueSource(ints = {1, 2, 3})
              void hangsOnTwo(int i) throws Exception { if (i == 2) new java.util.concurrent.CountDownLatch(1).await(); }
            }
            """,
        "src/test/java/demo/AfterTest.java", """
            package demo;
            class AfterTest {
              @org.junit.jupiter.api.Test void passes() {}
              @org.junit.jupiter.api.Test void exits() { System.exit(9); }
            }
            """));
    MavenProject project = new ProjectBuilder(Duration.ofMinutes(5)).build(dir);
    module = project.modules().get(0);
  }

  @Test
  void hungAndCrashedTestsAreReportedAndTheOthersStillRun() throws Exception {
    TestJvm jvm = new TestJvm(module, JUnitPlatformJars.launcherFor(module, dir), AgentJar.locate());
    Path work = dir.resolve("run");

    TestRunResult run = new ContinuingTestRun(jvm).run(TestSelection.ALL, Optional.empty(),
        TestLimits.uniform(Duration.ofSeconds(2)), Duration.ofMinutes(3), work);

    Map<String, TestOutcome> byName = new TreeMap<>();
    run.outcomes().forEach(o -> byName.put(o.method() + (o.name().startsWith("[") ? o.name() : ""), o));
    assertEquals(TestOutcome.Status.HUNG, byName.get("sleepsForever").status(), byName::toString);
    String threads = byName.get("sleepsForever").threads();
    assertTrue(threads.contains("java.lang.Thread.sleep"), threads);
    assertTrue(threads.contains("HangsTest.sleepsForever"), threads);
    assertEquals(TestOutcome.Status.PASSED, byName.get("passesBesideIt").status(), byName::toString);
    assertEquals(TestOutcome.Status.PASSED, byName.get("passes").status(), byName::toString);
    assertEquals(TestOutcome.Status.CRASHED, byName.get("exits").status(), byName::toString);
    assertEquals(TestOutcome.Status.PASSED, byName.get("hangsOnTwo[1] 1").status(), byName::toString);
    TestOutcome two = byName.get("hangsOnTwo[2] 2");
    assertEquals(TestOutcome.Status.HUNG, two.status(), byName::toString);
    assertTrue(two.threads().contains("CountDownLatch.await"), two.threads());
    // the invocation after the hung one is not reachable: its template is skipped as a whole
    assertFalse(byName.containsKey("hangsOnTwo[3] 3"), byName::toString);

    assertEquals(4, run.attempts(), () -> "two hangs and one exit: four JVMs; logs " + run.logs());
    assertTrue(run.completed());
    assertFalse(run.timedOut());
    for (int n = 1; n <= 4; n++) {
      assertTrue(Files.isRegularFile(work.resolve("results-" + n + ".jsonl")));
      assertTrue(Files.isRegularFile(work.resolve("output-" + n + ".log")));
    }
    assertTrue(Files.readString(work.resolve("output-1.log")).contains("over its limit of 2000 ms")
        || Files.readString(work.resolve("output-2.log")).contains("over its limit of 2000 ms"));
  }

  @Test
  void aJvmWedgedBeyondTheWatchdogIsKilledAtTheBackstopAndTheRunContinues() throws Exception {
    TestJvm jvm = new TestJvm(module, JUnitPlatformJars.launcherFor(module, dir), AgentJar.locate());

    // no per-test limit: only the whole-JVM backstop can end the hang
    TestRunResult run = new ContinuingTestRun(jvm).run(TestSelection.matching("HangsTest#sleepsForever+passesBesideIt"),
        Optional.empty(), TestLimits.NONE, Duration.ofSeconds(15), dir.resolve("backstop"));

    Map<String, TestOutcome.Status> statuses = new TreeMap<>();
    run.outcomes().forEach(o -> statuses.put(o.method(), o.status()));
    assertEquals(Map.of("sleepsForever", TestOutcome.Status.TIMED_OUT, "passesBesideIt", TestOutcome.Status.PASSED),
        statuses);
    assertTrue(run.timedOut());
    assertTrue(run.completed());
  }
}
