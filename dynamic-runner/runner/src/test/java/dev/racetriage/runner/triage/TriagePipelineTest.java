package dev.racetriage.runner.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.runner.project.ProjectFixtures;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.races.RaceSummary;
import dev.racetriage.store.verdicts.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole detect pipeline on real projects: Maven build, baseline JVM, agent JVM, store. */
class TriagePipelineTest {
  @TempDir Path dir;

  @Test
  void detectsExactlyTheRacyFieldsOfTheExamplesAndStoresThem() throws Exception {
    Path root = ProjectFixtures.copyRacyShapes(dir.resolve("racy-shapes"));

    TriageResult result = new TriagePipeline().run(TriageOptions.defaults(root).withDetectOnly(true), TriageProgress.silent());

    Set<String> fields = new TreeSet<>();
    result.races().forEach(r -> fields.add(r.race().fieldKey()));
    assertEquals(new TreeSet<>(List.of(
        "dev.racetriage.examples.BusyWait.done",
        "dev.racetriage.examples.BusyWait.result",
        "dev.racetriage.examples.HashCache.hash",
        "dev.racetriage.examples.Point.p",
        "dev.racetriage.examples.Point.x",
        "dev.racetriage.examples.Point.y",
        "dev.racetriage.examples.RacyInitLoop.x",
        "dev.racetriage.examples.TourSearch.bestLength",
        "dev.racetriage.examples.VerboseProgress.verbose")), fields);
    assertEquals(11, result.stats().tests());
    assertEquals(TriageOptions.DEFAULT_DETECT_RUNS, result.stats().detectRuns(), "the tests ran three times under detection");
    Set<String> candidates = new TreeSet<>();
    result.candidates().forEach(c -> candidates.add(c.field()));
    assertTrue(candidates.containsAll(fields), () -> "the prefilter should flag every raced field; it flagged " + candidates);
    RaceFinding pointX = result.races().stream()
        .filter(r -> r.race().fieldKey().equals("dev.racetriage.examples.Point.x")).findFirst().orElseThrow();
    assertEquals(List.of("dev.racetriage.examples.PointTest#bothThreadsSeeSlopeOne"), pointX.race().tests(),
        "each race names the tests during which it happened");
    assertFalse(result.hasDestructive(), "nothing is classified in detect-only mode");
    // the examples' CPU-bound tests (the tour searches, the busy waits) run past the prediction budget: said, once
    assertEquals(List.of(TriagePipeline.predictionStoppedWarning(".", result.stats().predictionStoppedAfterEvents())),
        result.warnings());
    assertTrue(result.stats().predictionStoppedAfterEvents() > 0, result.warnings()::toString);

    try (TriageStore store = TriageStore.openProject(root)) {
      Optional<RaceSummary> point = store.races().find(FieldKey.parse("dev.racetriage.examples.Point.x"));
      assertTrue(point.isPresent());
      assertEquals(1, store.runs().recent(10).size());
      assertEquals(result.candidates().size(), store.candidates().all().size());
    }
    assertTrue(Files.isRegularFile(root.resolve(".racetriage/triage.db")));
  }

  /** --budget is a hard limit: past it no run starts, and a race with no trial is unexercised, saying why. */
  @Test
  void racesTheBudgetLeftUntriedAreUnexercisedWithTheBudgetInTheirEvidence() throws Exception {
    Path root = ProjectFixtures.copyRacyShapes(dir.resolve("racy-shapes"));
    List<String> fields = List.of("dev.racetriage.examples.RacyInitLoop.x", "dev.racetriage.examples.Point.p");

    TriageResult result = new TriagePipeline().run(TriageOptions.defaults(root).withFields(fields)
        .withBudget(java.time.Duration.ZERO), TriageProgress.silent());

    assertEquals(0, result.stats().trials());
    for (RaceFinding r : result.races()) {
      if (!fields.contains(r.race().fieldKey())) continue;
      assertEquals(Verdict.UNEXERCISED, r.verdict(), r::toString);
      assertTrue(r.reason().contains("--budget ran out"), r.reason());
    }
    try (TriageStore store = TriageStore.openProject(root)) {
      assertEquals(Verdict.UNEXERCISED,
          store.verdicts().current(FieldKey.parse("dev.racetriage.examples.Point.p")).orElseThrow().verdict());
    }
  }

  /**
   * Trials through the trial server on three of the examples' fields (the qos example is left out: its verdict rests
   * on timing, which a unit test must not): the paper's verdicts, each (field, test) pair in one reused JVM.
   */
  @Test
  void classifiesTheFigure2And8RacesWithTestsRepeatedInOneJvm() throws Exception {
    Path root = ProjectFixtures.copyRacyShapes(dir.resolve("racy-shapes"));
    List<String> fields = List.of("dev.racetriage.examples.RacyInitLoop.x", "dev.racetriage.examples.Point.x",
        "dev.racetriage.examples.Point.p");

    TriageResult result = new TriagePipeline().run(TriageOptions.defaults(root).withFields(fields), TriageProgress.silent());

    java.util.Map<String, Verdict> verdicts = new java.util.TreeMap<>();
    result.races().stream().filter(r -> fields.contains(r.race().fieldKey()))
        .forEach(r -> verdicts.put(r.race().fieldKey(), r.verdict()));
    assertEquals(java.util.Map.of("dev.racetriage.examples.RacyInitLoop.x", Verdict.DESTRUCTIVE,
        "dev.racetriage.examples.Point.x", Verdict.DESTRUCTIVE, "dev.racetriage.examples.Point.p", Verdict.BENIGN), verdicts);
    assertEquals(3, result.stats().trialJvms(), "one JVM per (field, test): PointTest resets its singleton, so it repeats");
    assertTrue(result.stats().trials() > 3 * 5, "several runs per JVM");
    assertTrue(result.warnings().stream().allMatch(w -> w.contains("the predictive analysis stopped after")),
        result.warnings()::toString); // the examples' CPU-bound tests run past the prediction budget
    assertTrue(result.races().stream().filter(r -> !fields.contains(r.race().fieldKey()))
        .allMatch(r -> r.verdict() == Verdict.PENDING), "the other races had no trials and keep their (absent) verdicts");
  }
}
