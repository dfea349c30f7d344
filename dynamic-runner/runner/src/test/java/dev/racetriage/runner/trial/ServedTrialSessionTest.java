package dev.racetriage.runner.trial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-JVM repeat on real forked JVMs: one fixture project (built once for the class) whose tests repeat cleanly,
 * leak static state, hang on their second run, call System.exit, or leave a thread behind.
 */
class ServedTrialSessionTest {
  private static final String CELL = """
      package demo;
      public class Cell {
        int value;
        public static Cell shared;
        public static int runs;
      }
      """;

  private static final Map<String, String> TESTS = Map.of(
      "src/main/java/demo/Cell.java", CELL,
      "src/test/java/demo/RepeatTest.java", """
          package demo;
          import org.junit.jupiter.api.Test;
          import static org.junit.jupiter.api.Assertions.assertEquals;
          class RepeatTest {
            @Test void writesOnceReadsTwice() {
              Cell c = new Cell();
              c.value = 7;
              assertEquals(14, c.value + c.value);
            }
            @Test void readsAnotherThreadsWriteOnce() throws Exception {
              Cell c = new Cell();
              Thread writer = new Thread(() -> c.value = 1);
              writer.start();
              Thread.sleep(20); // orders nothing: the read races the write
              int seen = c.value;
              writer.join();
              assertEquals(true, seen == 0 || seen == 1);
            }
          }
          """,
      "src/test/java/demo/LeakTest.java", """
          package demo;
          import org.junit.jupiter.api.Test;
          import static org.junit.jupiter.api.Assertions.assertNotNull;
          class LeakTest {
            @Test void initialisesASingletonOnce() {
              if (Cell.shared == null) Cell.shared = new Cell();
              assertNotNull(Cell.shared);
            }
          }
          """,
      "src/test/java/demo/HangTest.java", """
          package demo;
          import org.junit.jupiter.api.Test;
          class HangTest {
            @Test void hangsOnItsSecondRunInAJvm() throws Exception {
              Cell c = new Cell();
              c.value = ++Cell.runs;
              if (c.value == 2) new java.util.concurrent.CountDownLatch(1).await();
            }
          }
          """,
      "src/test/java/demo/LateHangTest.java", """
          package demo;
          import org.junit.jupiter.api.Test;
          class LateHangTest {
            @Test void hangsOnItsFourthRunInAJvm() throws Exception {
              Cell c = new Cell();
              c.value = ++Cell.runs;
              if (c.value == 4) new java.util.concurrent.CountDownLatch(1).await();
            }
          }
          """,
      "src/test/java/demo/ExitTest.java", """
          package demo;
          import org.junit.jupiter.api.Test;
          class ExitTest {
            @Test void exits() { new Cell().value = 1; System.exit(3); }
          }
          """,
      "src/test/java/demo/ScheduleTest.java", """
          package demo;
          import java.nio.file.Files;
          import java.nio.file.Path;
          import org.junit.jupiter.api.Test;
          import static org.junit.jupiter.api.Assertions.assertEquals;
          /**
           * Stand-ins for a schedule that decides whether the racy read happens at all (Peterson's turn is read only
           * when the threads overlap): whether run n reads the field is letter n of a pattern ('r' reads), n counted
           * across every JVM in a file of the working directory, so it holds in a fresh JVM too.
           */
          class ScheduleTest {
            static boolean readsThisRun(String pattern) throws Exception {
              Path counter = Path.of("runs-" + pattern);
              int run = (Files.exists(counter) ? Integer.parseInt(Files.readString(counter).trim()) : 0) + 1;
              Files.writeString(counter, Integer.toString(run));
              return pattern.charAt((run - 1) % pattern.length()) == 'r';
            }
            static void writeAndMaybeRead(String pattern) throws Exception {
              Cell c = new Cell();
              c.value = 3;
              if (readsThisRun(pattern)) assertEquals(3, c.value);
            }
            @Test void skipsTheReadOnceInAWhile() throws Exception { writeAndMaybeRead("r-rrrr"); }
            @Test void skipsTheReadForThreeRunsInARow() throws Exception { writeAndMaybeRead("r---rr"); }
          }
          """,
      "src/test/java/demo/OutcomeTest.java", """
          package demo;
          import org.junit.jupiter.api.Test;
          import static org.junit.jupiter.api.Assertions.assertTrue;
          class OutcomeTest {
            static int runs;
            static int otherRuns;
            @Test void passesOnlyOnItsFirstRunInAJvm() {
              new Cell().value = 1;
              assertTrue(++runs == 1, "an earlier run in this JVM broke me");
            }
            @Test void failsOnItsSecondRunOnly() {
              new Cell().value = 1;
              assertTrue(++otherRuns != 2, "an intermittent failure");
            }
          }
          """,
      "src/test/java/demo/IdlePoolTest.java", """
          package demo;
          import java.util.concurrent.ExecutorService;
          import java.util.concurrent.Executors;
          import org.junit.jupiter.api.Test;
          import static org.junit.jupiter.api.Assertions.assertEquals;
          class IdlePoolTest {
            // an executor per test, never shut down: its worker stays parked waiting for work
            private final ExecutorService executor = Executors.newFixedThreadPool(1);
            @Test void leavesAnIdlePool() throws Exception {
              Cell c = new Cell();
              executor.submit(() -> { c.value = 3; }).get();
              assertEquals(3, c.value);
            }
          }
          """,
      "src/test/java/demo/ThreadTest.java", """
          package demo;
          import org.junit.jupiter.api.Test;
          class ThreadTest {
            @Test void leavesAThreadRunning() {
              Cell c = new Cell();
              c.value = 1;
              new Thread(() -> { try { Thread.sleep(600_000); } catch (InterruptedException e) { } }, "leftover").start();
            }
          }
          """);

  @TempDir static Path dir;
  private static JvmTrialExecutor executor;

  private static TestJvm jvm;

  @BeforeAll
  static void buildOnce() throws Exception {
    ProjectFixtures.writeProject(dir, TESTS);
    MavenProject project = new ProjectBuilder(Duration.ofMinutes(5)).build(dir);
    jvm = new TestJvm(project.modules().get(0), JUnitPlatformJars.launcherFor(project.modules().get(0), dir),
        AgentJar.locate());
    executor = new JvmTrialExecutor(id -> jvm, id -> Duration.ofSeconds(10), dir.resolve("trials"));
  }

  private static String id(String testClass, String method) {
    return "[engine:junit-jupiter]/[class:demo." + testClass + "]/[method:" + method + "()]";
  }

  private static List<TrialOutcome> runs(String field, String testClass, String method, String... heuristics)
      throws Exception {
    List<TrialOutcome> outcomes = new ArrayList<>();
    try (ServedTrialSession session = new ServedTrialSession(executor, field, id(testClass, method))) {
      for (int i = 0; i < heuristics.length; i++) {
        outcomes.add(session.run(new TrialSpec(field, id(testClass, method), "demo." + testClass + "#" + method,
            heuristics[i], i)));
      }
      lastJvms = session.jvmsStarted();
      lastFallback = session.fallbackReason();
      lastScheduleMisses = session.scheduleMisses();
    }
    return outcomes;
  }

  private static int lastJvms;
  private static String lastFallback;
  private static int lastScheduleMisses;

  @Test
  void repeatsATestInOneJvmWithFreshCountersEachRun() throws Exception {
    List<TrialOutcome> outcomes = runs("demo.Cell.value", "RepeatTest", "writesOnceReadsTwice",
        "sc", "oldest", "sc", "random", "oldest-but-different");

    assertEquals(1, lastJvms, "five runs, one JVM");
    assertNull(lastFallback);
    for (TrialOutcome o : outcomes) {
      assertEquals(TrialOutcome.Result.PASS, o.result(), o::failure);
      assertEquals(2, o.reads(), "each run's own reads, not a running total: the agent state is fresh per run");
      assertEquals(0, o.staleReads(), "one thread: its own write is the only value it may see");
    }
    assertTrue(outcomes.get(0).warmUp());
    assertTrue(outcomes.stream().skip(1).noneMatch(TrialOutcome::warmUp));
    assertTrue(outcomes.get(1).replayCommand().contains("heuristic=oldest;seed=1;"), outcomes.get(1).replayCommand());
  }

  /**
   * One racy read of a location never read before: {@code oldest} serves the initial 0, and so would
   * {@code oldest-but-different}; the random heuristics would draw between 0 and 1 (with the same seed, alike). What
   * the agent reports reaches the outcome ({@link SharedRuns}), in the trial server and in a JVM per run.
   */
  @Test
  void aRunReportsTheHeuristicsThatWouldHaveMadeItAlike() throws Exception {
    List<TrialOutcome> served = runs("demo.Cell.value", "RepeatTest", "readsAnotherThreadsWriteOnce",
        "sc", "oldest", "random", "oldest-but-different");
    TrialOutcome fresh = executor.run(new TrialSpec("demo.Cell.value", id("RepeatTest", "readsAnotherThreadsWriteOnce"),
        "demo.RepeatTest#readsAnotherThreadsWriteOnce", "oldest", 5));
    for (TrialOutcome oldest : List.of(served.get(1), fresh)) {
      assertEquals(TrialOutcome.Result.PASS, oldest.result(), oldest::failure);
      assertEquals(1, oldest.staleReads(), "oldest serves the initial 0");
      assertEquals(java.util.Set.of("oldest-but-different"), oldest.sameChoices());
    }
    assertEquals(java.util.Set.of(), served.get(0).sameChoices(), "the control shares no run");
    assertTrue(served.get(2).sameChoices().contains("random-but-different"), served.get(2).sameChoices()::toString);
    assertEquals(java.util.Set.of("oldest"), served.get(3).sameChoices());
  }

  @Test
  void staticStateThatLeaksBetweenRunsFallsBackToAJvmPerRun() throws Exception {
    List<TrialOutcome> outcomes = runs("demo.Cell.shared", "LeakTest", "initialisesASingletonOnce", "sc", "oldest", "sc");

    assertNotNull(lastFallback);
    assertTrue(lastFallback.contains("state leaks"), lastFallback);
    assertEquals(3, outcomes.size());
    for (TrialOutcome o : outcomes) {
      assertEquals(TrialOutcome.Result.PASS, o.result(), o::failure);
      assertTrue(o.reads() > 0, "every counted run saw the singleton being created, as in a fresh JVM");
    }
    assertEquals(3, lastJvms, "the server (whose second and third runs never wrote the singleton), then a fresh JVM "
        + "that did — the leak confirmed, run 2 counted from there — and a JVM for the third run");
    assertTrue(outcomes.get(1).replayCommand().contains("heuristic=oldest"), outcomes.get(1).replayCommand());
  }

  /**
   * A run that skips the field's read once (the schedule's doing) is run again in the same JVM, which reads it: the
   * pair keeps its one JVM, and every counted run read the field.
   */
  @Test
  void aRunThatOnceMissesTheReadIsRepeatedInTheSameJvmNotAFreshOne() throws Exception {
    List<TrialOutcome> outcomes = runs("demo.Cell.value", "ScheduleTest", "skipsTheReadOnceInAWhile", "sc", "oldest", "sc");

    assertNull(lastFallback, "a miss that does not persist is no leak");
    assertEquals(1, lastJvms, "runs 1, 2 (no read, not counted), 3 (its repeat) and 4 in the one server");
    assertEquals(3, outcomes.size());
    for (TrialOutcome o : outcomes) {
      assertEquals(TrialOutcome.Result.PASS, o.result(), o::failure);
      assertEquals(1, o.reads(), "the run without a read is not among the counted ones");
    }
    assertTrue(outcomes.stream().skip(1).noneMatch(TrialOutcome::warmUp));
  }

  /**
   * Two runs in a row without the read, and a fresh JVM does not read it either: missing it is what the test does,
   * not leaked state. The fresh JVM's run counts, and the pair goes back to its server.
   */
  @Test
  void aMissThatAFreshJvmSharesIsScheduleNotLeakAndTheServerStays() throws Exception {
    List<TrialOutcome> outcomes = runs("demo.Cell.value", "ScheduleTest", "skipsTheReadForThreeRunsInARow",
        "sc", "oldest", "sc");

    assertNull(lastFallback, "the fresh JVM missed the read too: no leak");
    assertEquals(1, lastScheduleMisses);
    assertEquals(2, lastJvms, "the server and the one fresh JVM that checked");
    assertEquals(List.of(1L, 0L, 1L), outcomes.stream().map(TrialOutcome::reads).toList(),
        "run 2 is the fresh JVM's (no read, as there); run 3 the server's again");
    assertTrue(outcomes.stream().allMatch(o -> o.result() == TrialOutcome.Result.PASS));
    assertFalse(outcomes.get(2).warmUp(), "the third run reused the server: not a new JVM's first run");
  }

  /** A test that fails under sc only after an earlier run in its JVM: a fresh JVM passes it, so the pair falls back. */
  @Test
  void aFailureThatOnlyARepeatInTheJvmCausesFallsBackAndIsNotCounted() throws Exception {
    List<TrialOutcome> outcomes = runs("demo.Cell.value", "OutcomeTest", "passesOnlyOnItsFirstRunInAJvm", "sc", "sc", "oldest");

    assertNotNull(lastFallback);
    assertTrue(lastFallback.contains("state may leak") && lastFallback.contains("passed in a fresh JVM"), lastFallback);
    assertTrue(outcomes.stream().allMatch(o -> o.result() == TrialOutcome.Result.PASS),
        () -> "the failures of the reused JVM are not evidence: " + outcomes);
    assertEquals(3, lastJvms, "the server, the fresh JVM that passed run 2, a JVM for run 3");
  }

  /** A failure that a repeat in the same JVM does not reproduce stands: intermittent failures are evidence. */
  @Test
  void anIntermittentFailureInTheReusedJvmIsCountedAsItWas() throws Exception {
    List<TrialOutcome> outcomes = runs("demo.Cell.value", "OutcomeTest", "failsOnItsSecondRunOnly", "sc", "sc", "sc");

    assertNull(lastFallback);
    assertEquals(1, lastJvms);
    assertEquals(List.of(TrialOutcome.Result.PASS, TrialOutcome.Result.FAIL, TrialOutcome.Result.PASS),
        outcomes.stream().map(TrialOutcome::result).toList());
    assertTrue(outcomes.get(1).failure().contains("an intermittent failure"), outcomes.get(1).failure());
  }

  @Test
  void aHangIsKilledCountedAsTimeoutAndTheNextRunGetsAFreshJvm() throws Exception {
    List<TrialOutcome> outcomes = runs("demo.Cell.value", "HangTest", "hangsOnItsSecondRunInAJvm", "sc", "oldest", "sc");

    assertEquals(TrialOutcome.Result.PASS, outcomes.get(0).result());
    assertEquals(TrialOutcome.Result.TIMEOUT, outcomes.get(1).result());
    assertTrue(outcomes.get(1).failure().startsWith("the test did not finish within 10 s (the test's trial limit; "
        + "fewer than 3 sc runs"), outcomes.get(1).failure());
    assertFalse(outcomes.get(1).failed(), "a timeout is not a failure");
    assertEquals(TrialOutcome.Result.PASS, outcomes.get(2).result(), "a new server: the test's first run again");
    assertTrue(outcomes.get(2).warmUp());
    assertEquals(2, lastJvms);
  }

  /** Once three sc runs are known, a hang is stopped at 5x their p90 plus slack, not at the static limit. */
  @Test
  void aHangAfterThreeScRunsIsStoppedAtTheLimitTheyTaught() throws Exception {
    TrialLimits limits = new TrialLimits(id -> Duration.ofSeconds(120), "the static limit", Duration.ofSeconds(20),
        Duration.ofSeconds(1));
    JvmTrialExecutor learning = new JvmTrialExecutor(id -> jvm, limits, dir.resolve("trials-learning"));
    String test = id("LateHangTest", "hangsOnItsFourthRunInAJvm");
    List<TrialOutcome> outcomes = new ArrayList<>();
    try (ServedTrialSession session = new ServedTrialSession(learning, "demo.Cell.value", test)) {
      for (String h : List.of("sc", "sc", "sc", "oldest")) {
        outcomes.add(session.run(new TrialSpec("demo.Cell.value", test, "demo.LateHangTest#hangsOnItsFourthRunInAJvm",
            h, outcomes.size())));
      }
    }
    TrialOutcome hang = outcomes.get(3);
    assertEquals(TrialOutcome.Result.TIMEOUT, hang.result());
    long p90 = outcomes.subList(0, 3).stream().mapToLong(TrialOutcome::millis).max().orElseThrow();
    assertEquals(5 * p90 + 1000, hang.millis(), "its duration is the learned limit");
    assertTrue(hang.failure().contains("(5x the p90 of 3 sc run(s) of this test"), hang.failure());
  }

  @Test
  void systemExitEndsTheServerAndLaterRunsUseAJvmEach() throws Exception {
    List<TrialOutcome> outcomes = runs("demo.Cell.value", "ExitTest", "exits", "sc", "oldest");

    assertEquals(TrialOutcome.Result.FAIL, outcomes.get(0).result());
    assertTrue(outcomes.get(0).failure().contains("exit code 3"), outcomes.get(0).failure());
    assertEquals(TrialOutcome.Result.FAIL, outcomes.get(1).result(), outcomes.get(1)::toString);
    assertNotNull(lastFallback);
    assertEquals(2, lastJvms);
  }

  @Test
  void aTestThatLeavesAThreadRunningIsNotRepeatedInItsJvm() throws Exception {
    List<TrialOutcome> outcomes = runs("demo.Cell.value", "ThreadTest", "leavesAThreadRunning", "sc", "oldest");

    assertTrue(outcomes.stream().allMatch(o -> o.result() == TrialOutcome.Result.PASS));
    assertNotNull(lastFallback);
    assertTrue(lastFallback.contains("leftover"), lastFallback);
    assertEquals(2, lastJvms);
    assertFalse(outcomes.get(1).warmUp());
  }

  @Test
  void aTestThatLeavesOnlyAnIdlePoolIsRepeatedInItsJvm() throws Exception {
    List<TrialOutcome> outcomes = runs("demo.Cell.value", "IdlePoolTest", "leavesAnIdlePool", "sc", "oldest", "sc");

    assertTrue(outcomes.stream().allMatch(o -> o.result() == TrialOutcome.Result.PASS), outcomes::toString);
    assertNull(lastFallback, () -> "fell back: " + lastFallback);
    assertEquals(1, lastJvms);
  }

  /** An sc run killed at its limit is the machine's noise until it repeats: the pair's next limit is doubled. */
  @Test
  void aTimeoutUnderScDoublesThePairsNextLimit() throws Exception {
    String field = "demo.Cell.shared"; // a pair of its own: the other tests' limits stay as they are
    List<TrialOutcome> outcomes = runs(field, "HangTest", "hangsOnItsSecondRunInAJvm", "sc", "sc");

    assertEquals(TrialOutcome.Result.TIMEOUT, outcomes.get(1).result());
    TrialLimits.Limit next = executor.limits().limit(field, id("HangTest", "hangsOnItsSecondRunInAJvm"), false);
    assertEquals(Duration.ofSeconds(20), next.duration(), next::basis);
    assertTrue(next.basis().endsWith("doubled once after 1 sc run(s) of this test timed out"), next.basis());
  }
}
