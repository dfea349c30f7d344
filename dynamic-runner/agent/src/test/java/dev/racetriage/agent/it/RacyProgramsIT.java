package dev.racetriage.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Programs with one known race each: the agent reports exactly that field key. */
class RacyProgramsIT {

  /** Runs the fixture under the agent in detect mode (with these JVM options) and checks the JVM exited cleanly. */
  private static AgentJvm.Result run(String name, List<String> jvmOptions, String fixture) throws Exception {
    AgentJvm.Result result = AgentJvm.run(name, jvmOptions, "mode=detect", AgentJvm.TEST_CLASSPATH,
        "dev.racetriage.fixtures.FixtureMain", fixture);
    assertEquals(0, result.exitCode(), result.describe());
    return result;
  }

  @Test
  void plainElementsOfAVolatileArrayReferenceAreReportedUnderTheArraysField() throws Exception {
    String fixture = "dev.racetriage.fixtures.racy.VolatileArrayElementsBad";
    AgentJvm.Result result = run("volatile-array", List.of(), fixture);
    assertEquals("ok", result.report().status());
    assertEquals(Set.of(fixture + ".cells[]"), result.report().racyFields(), result.describe());
  }

  /**
   * Two threads that each load a class, link a lambda and a string concatenation, or look up a logger, a time zone,
   * a message digest and a method handle between their unordered writes race all the same: the JDK's own
   * synchronisation in those (the class-loading locks' map, interned method types, the registries' tables) is not an
   * edge (QuietLinking). Happens-before alone (predict=false), so that no
   * prediction makes up for an edge that should not be there.
   */
  @Test
  void classLoadingOrLinkingBetweenTwoWritesDoesNotOrderThem() throws Exception {
    String loading = "dev.racetriage.fixtures.racy.ClassLoadingBetweenBad";
    String linking = "dev.racetriage.fixtures.racy.LinkingBetweenBad";
    String registries = "dev.racetriage.fixtures.racy.JdkRegistriesBetweenBad";
    AgentJvm.Result result = AgentJvm.run("class-loading-between", List.of(), "mode=detect;predict=false",
        AgentJvm.TEST_CLASSPATH, "dev.racetriage.fixtures.FixtureMain", loading, linking, registries);
    assertEquals(0, result.exitCode(), result.describe());
    assertEquals(Set.of(loading + ".value", linking + ".value", registries + ".value"), result.report().racyFields(),
        result.describe());
    assertTrue(result.report().lines().stream().noneMatch(l -> l.contains("\"predicted\"")), result.describe());
  }

  @Test
  void anArrayRaceReportsTheIndexThatRacedAndAFieldRaceNone() throws Exception {
    String fixture = "dev.racetriage.fixtures.racy.RacyArrayElementBad";
    AgentJvm.Result result = run("racy-element", List.of(), fixture);
    assertEquals(Set.of(fixture + ".slots[]", fixture + ".lastWorker"), result.report().racyFields(), result.describe());
    assertEquals(List.of(5), result.report().indices(fixture + ".slots[]"), result.describe());
    assertEquals(List.of(), result.report().indices(fixture + ".lastWorker"), result.describe());
  }

  /**
   * A JDK class defined after the agent started carries the shadow slot (a ConcurrentSkipListMap node): the put's
   * edge through it still orders the write before it, and the write after it still races with the reader.
   */
  @Test
  void aWriteAfterAConcurrentSkipListMapPutRacesWithTheReaderThatFoundIt() throws Exception {
    String fixture = "dev.racetriage.fixtures.racy.SkipListWriteAfterPutBad";
    AgentJvm.Result result = run("skip-list-put", List.of(), fixture);
    assertEquals(Set.of(fixture + "$Box.value"), result.report().racyFields(), result.describe());
    assertTrue(result.stdout().contains("skip list node slot: true"), result.describe());
    assertEquals(0, result.report().summaryNumber("internalErrors"), result.report().summary());
  }

  /**
   * Plain Unsafe gets and puts (a lock-free library's idiom) are checked as the instance field, static field or array
   * elements they name; the ordered and volatile forms order, they never race.
   */
  @Test
  void plainUnsafeAccessesRaceOnTheFieldsAndElementsTheyName() throws Exception {
    String fixture = "dev.racetriage.fixtures.racy.UnsafePlainAccessesBad";
    AgentJvm.Result result = run("unsafe-plain", List.of(), fixture);
    assertEquals(Set.of(fixture + ".count", fixture + ".total", fixture + ".cells[]"), result.report().racyFields(),
        result.describe());
    assertEquals(List.of(3), result.report().indices(fixture + ".cells[]"), result.describe());
    assertEquals(0, result.report().summaryNumber("internalErrors"), result.report().summary());
  }

  @Test
  void aCounterIncrementedByPoolTasksWithoutALockIsReported() throws Exception {
    String fixture = "dev.racetriage.fixtures.racy.LostUpdateCounterBad";
    AgentJvm.Result result = run("lost-update", List.of(), fixture);
    assertEquals(Set.of(fixture + ".hits"), result.report().racyFields(), result.describe());
  }

  /** Copies, fills and clones inside the JDK are range accesses at their call sites: each shape reports its array. */
  @Test
  void bulkArrayOperationsRaceAtTheirCallSites() throws Exception {
    String fixture = "dev.racetriage.fixtures.racy.BulkArrayCopiesBad";
    AgentJvm.Result result = run("bulk-arrays", List.of(), fixture);
    assertEquals(Set.of(fixture + ".source[]", fixture + ".target[]", fixture + ".cells[]", fixture + ".counts[]"),
        result.report().racyFields(), result.describe());
    assertEquals(List.of(3), result.report().indices(fixture + ".counts[]"), result.describe());
    List<Integer> cells = result.report().indices(fixture + ".cells[]");
    assertTrue(cells.contains(4) && Set.of(2, 3, 4, 5).containsAll(cells), "cells[] indices " + cells);
    assertEquals(0, result.report().summaryNumber("internalErrors"), result.report().summary());
  }

  /**
   * A value class's lazily cached hash, filled by the JDK's calls of {@code hashCode} on two threads before the
   * concurrent map orders anything: each class's cache races (issue 22's held-out misses).
   */
  @Test
  void aLazilyCachedHashHashedOnTwoThreadsRaces() throws Exception {
    String fixture = "dev.racetriage.fixtures.racy.LazyHashKeysBad";
    AgentJvm.Result result = run("lazy-hash", List.of(), fixture);
    assertEquals(Set.of(fixture + "$Key.hash", fixture + "$RereadKey.hash"), result.report().racyFields(),
        result.describe());
  }

  /** A counter updated after its job was put in a queue races with the consumer's update; before the put it does not. */
  @Test
  void aCounterUpdatedAfterTheHandoffRaces() throws Exception {
    String fixture = "dev.racetriage.fixtures.racy.CounterAfterHandoffBad";
    AgentJvm.Result result = run("counter-after-handoff", List.of(), fixture);
    assertEquals(Set.of(fixture + "$Job.attempts"), result.report().racyFields(), result.describe());
  }

  /** Readers of a ReentrantReadWriteLock or a StampedLock are not ordered by each other's unlocks: their writes race. */
  @Test
  void writesUnderAReadLockRaceEvenWhenTheReadSectionsDoNotOverlap() throws Exception {
    String fixture = "dev.racetriage.fixtures.racy.WritesUnderReadLockBad";
    AgentJvm.Result result = run("read-lock-writes", List.of(), fixture);
    assertEquals(Set.of(fixture + ".lastReader", fixture + ".lastStampedReader"), result.report().racyFields(),
        result.describe());
    assertEquals(0, result.report().summaryNumber("internalErrors"), result.report().summary());
  }

  /**
   * Two writes ordered only by two empty synchronized blocks on one lock: happens-before reports nothing
   * (predict=false); WCP, on by default, predicts the race, marked predicted, with the lock whose order to flip.
   */
  @Test
  void emptySynchronizedBlocksHideARaceThatOnlyPredictionFinds() throws Exception {
    String fixture = "dev.racetriage.fixtures.racy.EmptySynchronizedBlocksBad";
    AgentJvm.Result observed = AgentJvm.run("empty-sync-hb", List.of(), "mode=detect;predict=false",
        AgentJvm.TEST_CLASSPATH, "dev.racetriage.fixtures.FixtureMain", fixture);
    assertEquals(0, observed.exitCode(), observed.describe());
    assertEquals(Set.of(), observed.report().racyFields(), observed.describe());
    assertEquals(0, observed.report().summaryNumber("predictionEvents"), observed.report().summary());
    AgentJvm.Result result = run("empty-sync", List.of(), fixture);
    assertEquals(Set.of(fixture + ".value"), result.report().racyFields(), result.describe());
    String line = result.report().lines().stream().filter(l -> l.startsWith("{\"type\":\"race\"")).findFirst()
        .orElseThrow();
    assertTrue(line.contains("\"kind\":\"WW\",\"predicted\":true,\"witness\":\"flip the monitor of "
        + "java.lang.Object@"), line);
    assertTrue(line.contains("released it before"), line);
    assertEquals(0, result.report().summaryNumber("internalErrors"), result.report().summary());
    assertEquals(0, result.report().summaryNumber("predictionStoppedAfterEvents"), "a small program is covered whole: "
        + result.report().summary());
  }

  /**
   * Past its budget the predictive analysis stops and says so; what it predicted before stays reported, and
   * happens-before goes on finding every race after the stop. Without a budget the late race is predicted too.
   */
  @Test
  void pastItsBudgetPredictionStopsSaysSoAndHappensBeforeGoesOn() throws Exception {
    String early = "dev.racetriage.fixtures.racy.EmptySynchronizedBlocksBad";
    String fixture = "dev.racetriage.fixtures.racy.PredictionPastBudgetBad";
    int budget = 50_000; // above the first fixture's events, below the second's busy loop (200000)
    AgentJvm.Result result = AgentJvm.run("prediction-budget", List.of(), "mode=detect;predictEvents=" + budget,
        AgentJvm.TEST_CLASSPATH, "dev.racetriage.fixtures.FixtureMain", "--repeat", "1", early, fixture);
    assertEquals(0, result.exitCode(), result.describe());
    assertEquals(Set.of(early + ".value", fixture + ".observed"), result.report().racyFields(), result.describe());
    long stoppedAfter = result.report().summaryNumber("predictionStoppedAfterEvents");
    assertTrue(stoppedAfter > 0 && stoppedAfter <= budget, result.report().summary());
    assertEquals(stoppedAfter, result.report().summaryNumber("predictionEvents"), result.report().summary());
    assertTrue(result.stderr().contains("the predictive analysis stopped after " + stoppedAfter + " events"),
        result.describe());
    for (String line : result.report().lines()) {
      if (line.contains("\"field\":\"" + early + ".value\"")) {
        assertTrue(line.contains("\"predicted\":true"), line); // found before the stop: kept
      } else if (line.contains("\"field\":\"" + fixture + ".observed\"")) {
        assertTrue(!line.contains("\"predicted\""), line); // happens-before's, after the stop
      }
    }
    AgentJvm.Result whole = AgentJvm.run("prediction-unbounded", List.of(), "mode=detect;predictEvents=0",
        AgentJvm.TEST_CLASSPATH, "dev.racetriage.fixtures.FixtureMain", "--repeat", "1", early, fixture);
    assertEquals(0, whole.exitCode(), whole.describe());
    assertEquals(Set.of(early + ".value", fixture + ".late", fixture + ".observed"), whole.report().racyFields(),
        whole.describe());
    assertEquals(0, whole.report().summaryNumber("predictionStoppedAfterEvents"), whole.report().summary());
    assertTrue(whole.report().summaryNumber("predictionEvents") > dev.racetriage.fixtures.racy.PredictionPastBudgetBad.BUSY_EVENTS,
        whole.report().summary());
  }

  /**
   * With a budget, an analysis waits for a second thread: the fixture's single-threaded busy loop (above the budget)
   * costs it nothing, and the race only prediction finds, after the loop, is predicted — where an analysis that took
   * the loop's events stopped before it (the test above, where an earlier fixture's threads woke it first).
   */
  @Test
  void theAnalysisWaitsForASecondThreadSoASingleThreadedPrefixSpendsNoBudget() throws Exception {
    String fixture = "dev.racetriage.fixtures.racy.PredictionPastBudgetBad";
    AgentJvm.Result result = AgentJvm.run("prediction-waits", List.of(), "mode=detect;predictEvents=50000",
        AgentJvm.TEST_CLASSPATH, "dev.racetriage.fixtures.FixtureMain", "--repeat", "1", fixture);
    assertEquals(0, result.exitCode(), result.describe());
    assertEquals(Set.of(fixture + ".late", fixture + ".observed"), result.report().racyFields(), result.describe());
    assertEquals(0, result.report().summaryNumber("predictionStoppedAfterEvents"), result.report().summary());
    assertTrue(result.report().summaryNumber("predictionEvents") < 50_000, result.report().summary());
    for (String line : result.report().lines()) {
      if (line.contains("\"field\":\"" + fixture + ".late\"")) {
        assertTrue(line.contains("\"predicted\":true"), line);
      }
    }
  }

  /** With container calls modelled (the default), each unsynchronised container shared by two threads races on its field. */
  @Test
  void sharedUnsynchronisedContainersRaceOnTheFieldsThatHoldThem() throws Exception {
    String fixture = "dev.racetriage.fixtures.racy.SharedContainersBad";
    AgentJvm.Result result = run("containers", List.of(), fixture);
    assertEquals(Set.of(fixture + ".counts{}", fixture + ".ranks{}", fixture + ".log{}", fixture + ".text{}",
        fixture + ".tags{}", fixture + ".FORMAT{}"), result.report().racyFields(), result.describe());
    for (String line : result.report().lines()) {
      if (line.startsWith("{\"type\":\"race\"")) {
        assertTrue(line.contains("\"kind\":\"container\"") && line.contains("\"sitePairs\":[{\"kind\":\"W"), line);
      }
    }
    assertEquals(0, result.report().summaryNumber("internalErrors"), result.report().summary());
  }

  /**
   * A container its owner used alone until every one of its caches is hot (the held container's id, the container's
   * shadow in one of its ways: reads and rewrites settled without a call), then added to by a thread nothing orders
   * before the owner's next reads: those reads race with the add; the container the other thread only read does not.
   */
  @Test
  void anOwnersHotContainerCachesDoNotSettleAReadAfterAnUnorderedWrite() throws Exception {
    String fixture = "dev.racetriage.fixtures.racy.OwnedContainerThenSharedBad";
    AgentJvm.Result result = run("owned-container", List.of(), fixture);
    assertTrue(result.stdout().contains("ok " + fixture), result.describe());
    assertEquals(Set.of(fixture + ".items{}"), result.report().racyFields(), result.describe());
    assertEquals(0, result.report().summaryNumber("internalErrors"), result.report().summary());
  }

  /** {@code containers=false} turns the container model off: the same program reports no container race. */
  @Test
  void withContainersOffSharedContainersReportNothing() throws Exception {
    String fixture = "dev.racetriage.fixtures.racy.SharedContainersBad";
    AgentJvm.Result result = AgentJvm.run("containers-off", List.of(), "mode=detect;containers=false",
        AgentJvm.TEST_CLASSPATH, "dev.racetriage.fixtures.FixtureMain", fixture);
    assertTrue(result.stdout().contains("ok " + fixture), result.describe());
    assertTrue(result.report().racyFields().stream().noneMatch(f -> f.endsWith("{}")), result.describe());
  }

  /** The benchmarks' empty tool runs the instrumented program with every event ignored: the same race goes unseen. */
  @Test
  void theEmptyToolRunsTheProgramAndReportsNothing() throws Exception {
    String fixture = "dev.racetriage.fixtures.racy.LostUpdateCounterBad";
    AgentJvm.Result result = run("lost-update-empty-tool", List.of("-Dracetriage.agent.emptyTool=true"), fixture);
    assertTrue(result.stdout().contains("ok " + fixture), result.describe());
    assertEquals("ok", result.report().status(), result.describe());
    assertTrue(result.report().summaryNumber("classesInstrumented") > 0, result.report().summary());
    assertEquals(Set.of(), result.report().racyFields(), result.describe());
  }
}
