package dev.racetriage.runner.trial;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * A trial's sampled indices reach the jumble agent, in a reused JVM (trial server) and in a JVM of its own, on a real
 * forked JVM: a test whose only race is at element 5 of an array gets stale reads there only when index 5 is sampled.
 */
class JumbledIndicesTrialTest {
  private static final String FIELD = "demo.Slots.slots[]";
  private static final String TEST_ID = "[engine:junit-jupiter]/[class:demo.SlotsTest]/[method:readsElementFive()]";

  @TempDir static Path dir;
  private static JvmTrialExecutor executor;

  @BeforeAll
  static void buildOnce() throws Exception {
    ProjectFixtures.writeProject(dir, Map.of(
        "src/main/java/demo/Slots.java", """
            package demo;
            public class Slots {
              public final int[] slots = new int[8];
              /** Element 5 written on another thread, read back once it ended: getState() is no join edge. */
              public int handOffElementFive() throws InterruptedException {
                Thread writer = new Thread(() -> slots[5] = 1);
                writer.start();
                while (writer.getState() != Thread.State.TERMINATED) Thread.sleep(1);
                return slots[5];
              }
            }
            """,
        "src/test/java/demo/SlotsTest.java", """
            package demo;
            import org.junit.jupiter.api.Test;
            import static org.junit.jupiter.api.Assertions.assertTrue;
            class SlotsTest {
              @Test void readsElementFive() throws Exception {
                int v = new Slots().handOffElementFive();
                assertTrue(v == 0 || v == 1);
              }
            }
            """));
    MavenProject project = new ProjectBuilder(Duration.ofMinutes(5)).build(dir);
    TestJvm jvm = new TestJvm(project.modules().get(0), JUnitPlatformJars.launcherFor(project.modules().get(0), dir),
        AgentJar.locate());
    executor = new JvmTrialExecutor(id -> jvm, id -> Duration.ofSeconds(20), dir.resolve("trials"));
  }

  private static TrialSpec spec(long seed, List<Integer> indices) {
    return new TrialSpec(FIELD, TEST_ID, "demo.SlotsTest#readsElementFive", "oldest", seed, indices);
  }

  private static List<TrialOutcome> served(List<Integer> indices, int runs) throws Exception {
    List<TrialOutcome> outcomes = new ArrayList<>();
    try (ServedTrialSession session = new ServedTrialSession(executor, FIELD, TEST_ID)) {
      for (int i = 0; i < runs; i++) {
        outcomes.add(session.run(spec(i, indices)));
      }
      assertNull(session.fallbackReason());
      assertEquals(1, session.jvmsStarted());
    }
    return outcomes;
  }

  @Test
  void theTrialServerJumblesTheRacingIndex() throws Exception {
    for (TrialOutcome o : served(List.of(5), 2)) {
      assertEquals(TrialOutcome.Result.PASS, o.result(), o::failure);
      assertEquals(1, o.reads(), o.replayCommand());
      assertEquals(1, o.staleReads(), "oldest serves the initial 0: the writer's 1 is unordered with the read");
      assertTrue(o.replayCommand().contains(";indices=5;"), o.replayCommand());
    }
  }

  @Test
  void withTheDefaultIndicesElementFiveIsNeverJumbled() throws Exception {
    for (TrialOutcome o : served(List.of(), 2)) {
      assertEquals(TrialOutcome.Result.PASS, o.result(), o::failure);
      assertEquals(0, o.reads(), "only elements 0 and 1 are sampled");
    }
  }

  @Test
  void aTrialInAJvmOfItsOwnJumblesTheRacingIndex() throws Exception {
    TrialOutcome o = executor.run(spec(7, List.of(0, 5)));
    assertEquals(TrialOutcome.Result.PASS, o.result(), o::failure);
    assertEquals(1, o.reads());
    assertEquals(1, o.staleReads());
  }
}
