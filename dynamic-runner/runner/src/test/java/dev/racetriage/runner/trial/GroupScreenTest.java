package dev.racetriage.runner.trial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.runner.fork.AgentJar;
import dev.racetriage.runner.fork.JUnitPlatformJars;
import dev.racetriage.runner.fork.TestJvm;
import dev.racetriage.runner.project.MavenProject;
import dev.racetriage.runner.project.ProjectBuilder;
import dev.racetriage.runner.project.ProjectFixtures;
import dev.racetriage.runner.verdict.Classification;
import dev.racetriage.runner.verdict.VerdictClassifier;
import dev.racetriage.store.verdicts.Verdict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group testing: which races are screened together, and on real forked JVMs, that a group of benign races is
 * concluded in one JVM while a group with a destructive race is split until the destructive one is tried alone.
 */
class GroupScreenTest {
  private static final List<String> HEURISTICS = List.of("sc", "oldest", "oldest-but-different", "random",
      "random-but-different");

  private static String cache(String name) {
    return """
        package demo;
        public class %s {
          private int cached;
          public int value() {
            int c = cached;
            if (c == 0) { c = 7 * 191; cached = c; }
            return c;
          }
        }
        """.formatted(name);
  }

  private static final Map<String, String> SOURCES = Map.of(
      "src/main/java/demo/CacheA.java", cache("CacheA"),
      "src/main/java/demo/CacheB.java", cache("CacheB"),
      "src/main/java/demo/CacheC.java", cache("CacheC"),
      "src/main/java/demo/Init.java", """
          package demo;
          public class Init {
            static final class Box { int v = 5; }
            private Box box;
            public int value() {
              if (box == null) box = new Box();
              return box.v;
            }
          }
          """,
      "src/test/java/demo/BenignTest.java", """
          package demo;
          import org.junit.jupiter.api.Test;
          class BenignTest {
            @Test void cachesAgree() throws Exception {
              CacheA a = new CacheA(); CacheB b = new CacheB(); CacheC c = new CacheC();
              Runnable r = () -> { for (int i = 0; i < 50; i++) { a.value(); b.value(); c.value(); } };
              Thread t1 = new Thread(r); Thread t2 = new Thread(r);
              t1.start(); t2.start(); t1.join(); t2.join();
            }
          }
          """,
      "src/test/java/demo/MixedTest.java", """
          package demo;
          import org.junit.jupiter.api.Test;
          class MixedTest {
            @Test void initAndCaches() throws Throwable {
              CacheA a = new CacheA(); CacheB b = new CacheB(); Init init = new Init();
              Throwable[] failed = new Throwable[2];
              Thread[] ts = new Thread[2];
              for (int w = 0; w < 2; w++) {
                int me = w;
                ts[w] = new Thread(() -> {
                  try {
                    for (int i = 0; i < 50; i++) { a.value(); b.value(); if (init.value() != 5) throw new AssertionError(); }
                  } catch (Throwable e) { failed[me] = e; }
                });
              }
              for (Thread t : ts) t.start();
              for (Thread t : ts) t.join();
              for (Throwable e : failed) if (e != null) throw e;
            }
          }
          """);

  @TempDir static Path dir;
  private static JvmTrialExecutor executor;

  @BeforeAll
  static void buildOnce() throws Exception {
    ProjectFixtures.writeProject(dir, SOURCES);
    MavenProject project = new ProjectBuilder(Duration.ofMinutes(5)).build(dir);
    TestJvm jvm = new TestJvm(project.modules().get(0), JUnitPlatformJars.launcherFor(project.modules().get(0), dir),
        AgentJar.locate());
    executor = new JvmTrialExecutor(id -> jvm, id -> Duration.ofSeconds(60), dir.resolve("trials"));
  }

  private static String id(String testClass, String method) {
    return "[engine:junit-jupiter]/[class:demo." + testClass + "]/[method:" + method + "()]";
  }

  private static List<TrialCell> cells(String testClass, String method, String... fields) {
    List<TrialCell> cells = new ArrayList<>();
    for (String f : fields) {
      for (String h : HEURISTICS) cells.add(new TrialCell(f, id(testClass, method), "demo." + testClass + "#" + method, h));
    }
    return cells;
  }

  @Test
  void fieldsOfOneClassArraysAndFieldsOfSeveralTestsAreNeverGrouped() {
    List<TrialCell> cells = new ArrayList<>();
    cells.addAll(cells("T", "a", "p.Guard.ready", "p.Guard.data", "p.Other.x", "p.Third.y", "p.Arr.slots[]"));
    cells.addAll(cells("T", "a", "p.Both.z"));
    cells.addAll(cells("U", "b", "p.Both.z"));
    List<List<String>> groups = GroupScreen.groups(cells).stream()
        .map(g -> g.stream().map(TrialCell::fieldKey).distinct().toList()).toList();
    assertEquals(List.of(List.of("p.Guard.ready", "p.Other.x", "p.Third.y")), groups,
        "a guard and its data (one class) apart, no array, no field with two tests; Guard.data runs alone");
  }

  @Test
  void aGroupOfBenignRacesIsConcludedInOneJvm() throws Exception {
    List<TrialCell> group = cells("BenignTest", "cachesAgree", "demo.CacheA.cached", "demo.CacheB.cached",
        "demo.CacheC.cached");
    GroupScreen.Result r = new GroupScreen(executor, StoppingRule.standard(20)).run(group, () -> false);

    assertEquals(List.of(), r.splits(), () -> "split: " + r.splitReason());
    assertEquals(1, r.jvms());
    assertEquals(List.of("demo.CacheA.cached", "demo.CacheB.cached", "demo.CacheC.cached"),
        new ArrayList<>(new TreeMap<>(r.benign()).keySet()), "every cache was served stale values: " + r.singles());
    for (List<TrialOutcome> evidence : r.benign().values()) {
      Classification c = VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(evidence), false);
      assertEquals(Verdict.BENIGN, c.verdict(), c.summary());
      assertTrue(evidence.stream().allMatch(o -> o.replayCommand().contains("field=demo.CacheA.cached,demo.CacheB"
          + ".cached,demo.CacheC.cached;")), "a group run replays with the whole group jumbled");
    }
    int runs = r.benign().get("demo.CacheA.cached").size();
    assertTrue(runs <= 5 * 20, "one group run is evidence for all three: " + runs + " runs, not three times that");
  }

  /** Through the scheduler: the destructive field is found alone and the caches beside it keep their verdict. */
  @Test
  void aGroupWithADestructiveRaceIsSplitUntilItIsTriedAlone() throws Exception {
    List<TrialCell> cells = cells("MixedTest", "initAndCaches", "demo.CacheA.cached", "demo.CacheB.cached",
        "demo.Init.box");
    StoppingRule rule = StoppingRule.standard(20);
    TrialScheduler scheduler = new TrialScheduler(new ServedTrials(executor), rule, 1, null)
        .withGroups(new GroupScreen(executor, rule));
    List<TrialOutcome> outcomes = scheduler.run(cells, o -> {});

    Map<String, List<TrialOutcome>> byField = outcomes.stream()
        .collect(Collectors.groupingBy(o -> o.spec().fieldKey()));
    Map<String, Verdict> verdicts = new TreeMap<>();
    byField.forEach((f, os) -> verdicts.put(f,
        VerdictClassifier.standard().classify(TrialEvidence.byHeuristic(os), false).verdict()));
    assertEquals(Map.of("demo.CacheA.cached", Verdict.BENIGN, "demo.CacheB.cached", Verdict.BENIGN,
        "demo.Init.box", Verdict.DESTRUCTIVE), verdicts);
    assertTrue(scheduler.groupScreens() >= 2, "the mixed group, then a half: " + scheduler.groupScreens());
    assertTrue(scheduler.discardedGroupRuns() > 0, "the run that failed a group is evidence for no one");
    assertEquals(byField.get("demo.CacheA.cached").size(),
        byField.get("demo.CacheA.cached").stream().map(o -> o.spec().heuristic() + o.spec().seed()).distinct().count(),
        "carried passes are stored once, and a half's runs get seeds of their own");
    TrialOutcome failure = byField.get("demo.Init.box").stream().filter(TrialOutcome::failed).findFirst().orElseThrow();
    assertNotNull(failure.replayCommand());
    assertTrue(failure.replayCommand().contains("field=demo.Init.box;"), "confirmed alone: " + failure.replayCommand());
    assertTrue(Collections.disjoint(List.of(failure.replayCommand()), List.of("CacheA")));
  }
}
