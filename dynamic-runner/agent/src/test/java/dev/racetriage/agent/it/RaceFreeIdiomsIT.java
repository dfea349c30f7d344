package dev.racetriage.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One race-free program per synchronisation idiom (java.util.concurrent, synchronized containers, monitors,
 * wait/notify, join, volatiles, class initialisation, final fields, confinement), run under the agent in a forked
 * JVM: the agent must report zero races and the programs must still compute their results. Batched in two JVMs.
 */
class RaceFreeIdiomsIT {
  static final String PKG = "dev.racetriage.fixtures.racefree.";
  static final List<String> LOCKS_AND_HANDOFFS = List.of(
      "ReentrantLockCounterOk", "LockConditionHandoffOk", "ReadWriteLockCacheOk", "StampedLockAndAtomicArraysOk",
      "SemaphoreMutexOk",
      "AtomicReferencePublicationOk", "FieldUpdaterAndVarHandleOk", "QueueHandoffsOk", "CountDownLatchOk",
      "CyclicBarrierOk", "PhaserAndExchangerOk", "ConcurrentHashMapHandoffOk", "ConcurrentCollectionsHandoffOk",
      "SynchronizedCollectionsOk", "WaitNotifyOk", "JoinOk", "VolatileFlagPublicationOk", "StaticInitialisationOk",
      "FinalFieldPublicationOk", "ThreadConfinementOk", "BulkArrayCopiesOk",
      "ReadLockReadersOk", "SynchronizedWritesOk", "LazyHashKeysOk", "UnsafeOrderedPublicationOk");
  static final List<String> EXECUTORS = List.of(
      "ExecutorHandoffOk", "InvokeAllOk", "ScheduledExecutorOk", "TimerTaskOk", "CompletableFutureChainOk",
      "ForkJoinRecursiveSumOk", "ParallelStreamOk", "HandedOffCountersOk");

  @Test
  void locksQueuesLatchesBarriersCollectionsMonitorsAndVolatilesReportNoRace() throws Exception {
    assertRaceFree("idioms-locks-handoffs", LOCKS_AND_HANDOFFS);
  }

  @Test
  void executorsFuturesForkJoinAndParallelStreamsReportNoRace() throws Exception {
    assertRaceFree("idioms-executors", EXECUTORS);
  }

  /**
   * Container calls are modelled by default: every idiom above (run so in the tests above too) and the safe uses of
   * unsynchronised containers (synchronised, confined, published once then read-only) report nothing.
   */
  @Test
  void withContainerCallsModelledEveryIdiomAndTheSafeContainerUsesReportNoRace() throws Exception {
    List<String> all = new ArrayList<>(LOCKS_AND_HANDOFFS);
    all.addAll(EXECUTORS);
    all.add("ContainersOk");
    assertRaceFree("idioms-containers", all);
  }

  /**
   * Predictive detection (WCP) is on by default, so the tests above run with it: every idiom reports nothing, as
   * their critical sections either conflict or call code the agent does not see (then they order as happens-before),
   * and j.u.c hand-offs stay hard. Without it (predict=false), happens-before alone reports nothing either.
   */
  @Test
  void withoutPredictionsEveryIdiomReportsNoRace() throws Exception {
    List<String> all = new ArrayList<>(LOCKS_AND_HANDOFFS);
    all.addAll(EXECUTORS);
    assertRaceFree("idioms-no-predict", List.of(), "mode=detect;predict=false", all);
  }

  private static void assertRaceFree(String name, List<String> fixtures) throws Exception {
    assertRaceFree(name, List.of(), fixtures);
  }

  private static void assertRaceFree(String name, List<String> jvmOptions, List<String> fixtures) throws Exception {
    assertRaceFree(name, jvmOptions, "mode=detect", fixtures);
  }

  private static void assertRaceFree(String name, List<String> jvmOptions, String agentOptions,
                                     List<String> fixtures) throws Exception {
    List<String> args = new ArrayList<>(List.of("--repeat", "3"));
    fixtures.forEach(f -> args.add(PKG + f));
    AgentJvm.Result result = AgentJvm.run(name, jvmOptions, agentOptions, AgentJvm.TEST_CLASSPATH,
        "dev.racetriage.fixtures.FixtureMain", args.toArray(new String[0]));
    assertEquals(0, result.exitCode(), result.describe());
    for (String fixture : fixtures) {
      assertTrue(result.stdout().contains("ok " + PKG + fixture + "\n"), fixture + " did not finish: "
          + result.describe());
    }
    assertEquals("ok", result.report().status(), result.report().lines().toString());
    assertEquals(List.of(), List.copyOf(result.report().racyFields()), "race-free programs: " + result.describe());
    assertEquals(0, result.report().summaryNumber("internalErrors"), result.report().summary());
    assertTrue(result.report().summaryNumber("classesInstrumented") >= fixtures.size(), result.report().summary());
  }
}
