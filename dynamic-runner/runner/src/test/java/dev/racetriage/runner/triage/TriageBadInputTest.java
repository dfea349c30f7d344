package dev.racetriage.runner.triage;

import dev.racetriage.store.engine.StoreLocation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.runner.project.ProjectFixtures;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.AccessType;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.store.trials.Trial;
import dev.racetriage.store.trials.TrialOutcome;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input through the whole pipeline: each gives one clear message, and none loses what the triage database
 * already held (a database seeded with an earlier verdict, trials and run is read back unchanged afterwards).
 */
class TriageBadInputTest {
  private static final FieldKey EARLIER = FieldKey.parse("earlier.Shared.count");

  @TempDir Path dir;
  private Path db;
  private String before;

  @BeforeEach
  void seedTheDatabase() throws Exception {
    db = dir.resolve("kept/triage.db");
    Files.createDirectories(db.getParent());
    try (TriageStore store = TriageStore.open(db, dir)) {
      Run run = store.runs().start("triage", null, null);
      store.races().upsert(new Race(EARLIER, Set.of(RaceKind.WR),
          List.of(new AccessSite(AccessType.READ, "main", "earlier/Shared.java", 3, List.of()),
              new AccessSite(AccessType.WRITE, "worker", "earlier/Shared.java", 4, List.of())),
          Set.of("earlier.SharedTest#counts")), run.id());
      store.trials().add(new Trial(EARLIER, "earlier.SharedTest#counts", "oldest", 42, TrialOutcome.FAIL,
          Duration.ofMillis(12), 5, 3, "java.lang.AssertionError"), run.id());
      store.verdicts().set(EARLIER, Verdict.DESTRUCTIVE, new Evidence("1/1 runs failed under oldest", "java …",
          "java.lang.AssertionError", Map.of()), run.id());
      store.runs().finish(run.id(), RunStatus.SUCCEEDED, "earlier run", null);
    }
    before = snapshot();
  }

  /** What the database says about the earlier field: race, verdict history and trials. */
  private String snapshot() {
    try (TriageStore store = TriageStore.open(db, dir)) {
      return store.races().find(EARLIER) + "\n" + store.verdicts().history(EARLIER) + "\n" + store.trials().forRace(EARLIER);
    }
  }

  private TriageOptions options(Path project) {
    return new TriageOptions(project, db == null ? null : StoreLocation.file(db), false, 3, List.of("sc", "oldest"), 2, null, Duration.ofMinutes(5),
        Duration.ofMinutes(2));
  }

  /** Detection only ({@code --detect-only}), one run per JVM, into the test's database. */
  private TriageOptions detectOnce(Path project) {
    return new TriageOptions(project, StoreLocation.file(db), true, 3, List.of("sc", "oldest"), 2,
        null, Duration.ofMinutes(5), Duration.ofMinutes(2), true, true, List.of(), 1);
  }

  private TriageException failsWith(Path project) {
    TriageException error = assertThrows(TriageException.class,
        () -> new TriagePipeline().run(options(project), TriageProgress.silent()));
    assertEquals(before, snapshot(), "the earlier data is untouched");
    return error;
  }

  @Test
  void aDirectoryThatIsNotAMavenProject() throws Exception {
    Path project = Files.createDirectories(dir.resolve("plain"));
    Files.writeString(project.resolve("Main.java"), "class Main {}");
    TriageException error = failsWith(project);
    assertTrue(error.getMessage().contains("is not a Maven project (no pom.xml)"), error.getMessage());
  }

  @Test
  void aProjectThatDoesNotCompile() throws Exception {
    Path project = dir.resolve("broken");
    ProjectFixtures.writeSingleModuleProject(project, "package demo; public class Broken { int x = ; }");
    TriageException error = failsWith(project);
    assertTrue(error.getMessage().contains("does not build"), error.getMessage());
    assertTrue(error.getMessage().contains("Broken.java"), error.getMessage());
  }

  @Test
  void aProjectThatDoesNotCompileIsNamedWithoutColourCodesOrMavenBoilerplate() throws Exception {
    Path project = dir.resolve("broken-quiet");
    ProjectFixtures.writeSingleModuleProject(project, "package demo; public class Broken { int x = ; }");
    TriageException error = failsWith(project);
    assertFalse(error.getMessage().contains("\u001B["), error.getMessage());
    assertFalse(error.getMessage().contains("Re-run Maven"), error.getMessage());
    assertFalse(error.getMessage().contains("[Help 1]"), error.getMessage());
  }

  /** The JDK cannot load classes from a class path with a character outside the BMP: said before the build. */
  @Test
  void aProjectPathWithAnEmojiIsRefusedBeforeTheBuild() throws Exception {
    Path project = dir.resolve("tests \uD83D\uDE00");
    ProjectFixtures.writeProjectWithTests(project, "@Test void passes() { assertTrue(true); }");
    TriageException error = failsWith(project);
    assertTrue(error.getMessage().contains("contains '\uD83D\uDE00'") && error.getMessage().contains("ln -s"),
        error.getMessage());
    assertFalse(Files.exists(project.resolve("target")), "nothing was built");
  }

  @Test
  void aProjectWithNoTests() throws Exception {
    Path project = dir.resolve("untested");
    ProjectFixtures.writeSingleModuleProject(project, "package demo; public class Lonely { int x; }");
    TriageException error = failsWith(project);
    assertTrue(error.getMessage().contains("No compiled tests"), error.getMessage());
  }

  /**
   * A test that fails without the agent and one that calls System.exit, both racing: their races are flaky, never
   * destructive, each failure is named once, and the earlier data stays next to the new.
   */
  @Test
  void testsThatFailOrExitWithoutTheAgentAreFlakyNeverDestructive() throws Exception {
    Path project = dir.resolve("misbehaving");
    ProjectFixtures.writeProjectWithTests(project, """
          int shared;
          long other;
          @Test @org.junit.jupiter.api.Order(1) void racesAndFails() throws Exception {
            Thread a = new Thread(() -> shared = 1);
            Thread b = new Thread(() -> shared = 2);
            a.start(); b.start(); a.join(); b.join();
            fail("broken on purpose");
          }
          @Test @org.junit.jupiter.api.Order(2) void racesAndExits() throws Exception {
            Thread a = new Thread(() -> other = 1);
            Thread b = new Thread(() -> other = 2);
            a.start(); b.start(); a.join(); b.join();
            System.exit(4);
          }
        """);
    Files.createDirectories(project.resolve("src/test/resources"));
    Files.writeString(project.resolve("src/test/resources/junit-platform.properties"),
        "junit.jupiter.testmethod.order.default=org.junit.jupiter.api.MethodOrderer$OrderAnnotation\n");

    TriageResult result = new TriagePipeline().run(options(project), TriageProgress.silent());

    assertFalse(result.hasDestructive());
    assertEquals(2, result.races().size(), result.races()::toString);
    assertTrue(result.races().stream().allMatch(r -> r.verdict() == Verdict.FLAKY), result.races()::toString);
    // the two baseline warnings first; the race the seeded database holds is said not to be re-checked
    assertEquals(3, result.warnings().size(), result.warnings()::toString);
    assertTrue(result.warnings().get(2).startsWith("1 stored race(s) not re-checked")
        && result.warnings().get(2).contains("earlier.Shared.count"), result.warnings().get(2));
    assertTrue(result.warnings().get(0).contains("demo.BehaviourTest#racesAndFails")
            && result.warnings().get(0).contains("(failed, " + (1 + BaselineRecheck.RERUNS) + " of "
            + (1 + BaselineRecheck.RERUNS) + " runs)"), result.warnings().get(0));
    assertTrue(result.warnings().get(1).contains("demo.BehaviourTest#racesAndExits") && result.warnings().get(1).contains("(crashed)"),
        result.warnings().get(1));
    assertEquals(0, result.stats().trials(), "a test that fails without the agent teaches nothing under it");
    assertEquals(before, snapshot(), "the earlier data is untouched");
    try (TriageStore store = TriageStore.open(db, dir)) {
      assertEquals(Verdict.FLAKY, store.verdicts().current(FieldKey.parse("demo.BehaviourTest.shared")).orElseThrow().verdict());
      assertEquals(2, store.runs().recent(10).size(), "the earlier run and this one");
    }
  }

  /**
   * A test that runs whole natively but ends its JVM under the agent (the JUnit Platform rethrows an
   * OutOfMemoryError and the launcher exits, as commons-lang's did under its {@code -Xmx512m}) is named in a warning
   * that says the rest of it was not checked and that the detection JVM ran out of memory; the other tests go on.
   */
  @Test
  void aTestThatEndsItsDetectionJvmIsNamedAndTheOthersGoOn() throws Exception {
    Path project = dir.resolve("heavy");
    ProjectFixtures.writeProjectWithTests(project, """
          int shared;
          @Test @org.junit.jupiter.api.Order(1) void exhaustsTheHeapUnderTheAgent() {
            boolean underAgent = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(a -> a.startsWith("-javaagent:") && a.contains("racetriage-agent"));
            if (underAgent) {
              throw new OutOfMemoryError("Java heap space (the shadows of a big cache, simulated)");
            }
          }
          @Test @org.junit.jupiter.api.Order(2) void races() throws Exception {
            Thread a = new Thread(() -> shared = 1);
            Thread b = new Thread(() -> shared = 2);
            a.start(); b.start(); a.join(); b.join();
          }
        """);
    Files.createDirectories(project.resolve("src/test/resources"));
    Files.writeString(project.resolve("src/test/resources/junit-platform.properties"),
        "junit.jupiter.testmethod.order.default=org.junit.jupiter.api.MethodOrderer$OrderAnnotation\n");

    TriageResult result = new TriagePipeline().run(detectOnce(project), TriageProgress.silent());

    assertEquals(List.of("demo.BehaviourTest.shared"),
        result.races().stream().map(r -> r.race().fieldKey()).toList(), "the test after it was checked");
    String warning = result.warnings().stream().filter(w -> w.contains("exhaustsTheHeapUnderTheAgent")).findFirst()
        .orElseThrow(() -> new AssertionError("no warning names the test: " + result.warnings()));
    assertTrue(warning.contains("ended its detection JVM") && warning.contains("not checked")
        && warning.contains("ran out of memory") && warning.contains("<argLine>"), warning);
  }

  /**
   * The detection JVM's heap is sized from the baseline JVM's peak; a test that needs more under the agent (here: one
   * array bigger than that limit, asked for only when racetriage set one) makes the module's detection run again
   * without the limit, with a warning that says so and where the first attempt is. Its races are found; the other
   * tests are checked as usual.
   */
  @Test
  void aDetectionJvmOutOfItsBaselineSizedHeapRunsAgainWithoutTheLimit() throws Exception {
    Path project = dir.resolve("hungry");
    ProjectFixtures.writeProjectWithTests(project, """
          int shared;
          @Test void racesWhenItsHeapIsBigEnough() throws Exception {
            boolean limited = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(a -> a.startsWith("-Xmx"));
            if (limited) {
              System.err.println("heap limit " + (Runtime.getRuntime().maxMemory() >> 20) + " MB");
              long words = Math.min(Integer.MAX_VALUE - 8, Runtime.getRuntime().maxMemory() / 8 + 1024);
              long[] tooBig = new long[(int) words];
              tooBig[0] = 1;
            }
            Thread a = new Thread(() -> shared = 1);
            Thread b = new Thread(() -> shared = 2);
            a.start(); b.start(); a.join(); b.join();
          }
        """);

    List<String> phases = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    TriageProgress recorded = new TriageProgress() {
      @Override public void phase(String name, String detail) {
        phases.add(name + ": " + detail);
      }

      @Override public void step(int done, int total, String detail) {}
    };

    TriageResult result = new TriagePipeline().run(detectOnce(project), recorded);

    assertEquals(List.of("demo.BehaviourTest.shared"),
        result.races().stream().map(r -> r.race().fieldKey()).toList(), "the second attempt ran the test whole");
    String warning = result.warnings().stream().filter(w -> w.contains("ran out of memory under the heap limit"))
        .findFirst().orElseThrow(() -> new AssertionError("no warning says the detection ran again: "
            + result.warnings()));
    assertTrue(warning.contains("-Xmx") && warning.contains("with the JVM's default heap"), warning);
    Path aside = Path.of(warning.substring(warning.indexOf("output is in ") + "output is in ".length(),
        warning.length() - 1));
    assertTrue(aside.getFileName().toString().equals("detect-heap-limited") && Files.isDirectory(aside), warning);
    assertTrue(Files.isDirectory(aside.resolveSibling("detect")), "the second attempt's files are where they belong");
    assertTrue(result.warnings().stream().noneMatch(w -> w.contains("ended its detection JVM")),
        "the first attempt's crash is not reported as the result's: " + result.warnings());
    assertTrue(phases.stream().anyMatch(p -> p.startsWith("detect: ") && p.contains("ran out of memory under -Xmx")
        && p.contains("running it again without it")), "the progress line says why detection starts again: " + phases);
  }

  /**
   * A test that fails its baseline once and passes when re-run (as Peterson's lock without volatile does natively,
   * now and then) is intermittent, not broken: its race is tried, the verdict comes from the trials, and the evidence
   * names the native failure.
   */
  @Test
  void aTestThatFailsItsBaselineOnlySometimesIsTriedAndTheEvidenceSaysSo() throws Exception {
    Path project = dir.resolve("intermittent");
    ProjectFixtures.writeProjectWithTests(project, """
          int shared;
          @Test void racesAndFailsOnlyTheFirstTime() throws Exception {
            Thread a = new Thread(() -> shared = 1);
            Thread b = new Thread(() -> shared = 2);
            a.start(); b.start(); a.join(); b.join();
            java.nio.file.Path marker = java.nio.file.Path.of(getClass().getProtectionDomain().getCodeSource()
                .getLocation().toURI()).resolveSibling("first-run-done");
            if (!java.nio.file.Files.exists(marker)) {
              java.nio.file.Files.createFile(marker);
              fail("fails the first time only");
            }
          }
        """);

    TriageResult result = new TriagePipeline().run(options(project), TriageProgress.silent());

    assertEquals(1, result.races().size(), result.races()::toString);
    RaceFinding race = result.races().get(0);
    assertEquals("demo.BehaviourTest.shared", race.race().fieldKey());
    assertTrue(result.stats().trials() > 0, "an intermittent baseline failure does not stop the trials");
    assertTrue(race.verdict() != Verdict.FLAKY, race::toString);
    assertTrue(race.reason().contains("without the agent") && race.reason().contains(
        "demo.BehaviourTest#racesAndFailsOnlyTheFirstTime: 1 of 2 runs"), race.reason());
    assertEquals(1, result.warnings().stream().filter(w -> w.contains("failed without the agent in 1 of 2 runs")).count(),
        result.warnings()::toString);
    try (TriageStore store = TriageStore.open(db, dir)) {
      Evidence evidence = store.verdicts().current(FieldKey.parse("demo.BehaviourTest.shared")).orElseThrow().evidence();
      assertTrue(evidence.facts().get("failsWithoutAgent").contains("1 of 2 runs"), evidence.facts()::toString);
    }
    assertEquals(before, snapshot(), "the earlier data is untouched");
  }

  /**
   * A test that fails now and then on its own, also under {@code sc} (as Peterson's lock without volatile does
   * natively on x86), but fails every time it reads a stale value: the race is destructive, because the stale values
   * make it fail far more often than the control does — not flaky, as a single {@code sc} failure used to make it.
   */
  @Test
  void aControlThatFailsOnceDoesNotHideARaceThatFailsEveryTime() throws Exception {
    Path project = dir.resolve("intermittent-control");
    ProjectFixtures.writeProjectWithTests(project, """
          int shared;
          @Test void readsWhatTheOtherThreadWrote() throws Exception {
            Thread writer = new Thread(() -> shared = 1);
            writer.start();
            // a racy wait (nothing orders it with the write): on a loaded machine the writer may start late, and a
            // fixed sleep made the control fail a second time
            for (int i = 0; i < 500 && shared == 0; i++) Thread.sleep(1);
            int seen = shared;
            writer.join();
            boolean trial = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(a -> a.contains("mode=jumble"));
            java.nio.file.Path marker = java.nio.file.Path.of(getClass().getProtectionDomain().getCodeSource()
                .getLocation().toURI()).resolveSibling("first-trial-done");
            if (trial && !java.nio.file.Files.exists(marker)) {
              java.nio.file.Files.createFile(marker);
              fail("the first trial run (sc: the interleaving starts with the control) fails whatever it reads");
            }
            assertEquals(1, seen);
          }
        """);
    TriageOptions options = new TriageOptions(project, db == null ? null : StoreLocation.file(db), false, 10, List.of("sc", "oldest"), 1, null,
        Duration.ofMinutes(5), Duration.ofMinutes(2));

    TriageResult result = new TriagePipeline().run(options, TriageProgress.silent());

    assertEquals(1, result.races().size(), result.races()::toString);
    RaceFinding race = result.races().get(0);
    assertEquals(Verdict.DESTRUCTIVE, race.verdict(), race::toString);
    assertTrue(race.reason().matches("\\d+/\\d+ runs failed under oldest, 1/\\d+ under sc: the stale values make the"
        + " test fail more often than the control \\(Fisher p = .*\\)"), race.reason());
    try (TriageStore store = TriageStore.open(db, dir)) {
      Evidence evidence = store.verdicts().current(FieldKey.parse("demo.BehaviourTest.shared")).orElseThrow().evidence();
      assertEquals("1", evidence.facts().get("sc.failures"), evidence.facts()::toString);
      assertTrue(Integer.parseInt(evidence.facts().get("oldest.runs")) >= 6, "3 failures no longer end it alone");
    }
  }
}
