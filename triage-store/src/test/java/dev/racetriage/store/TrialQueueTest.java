package dev.racetriage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.queue.TrialItem;
import dev.racetriage.store.queue.TrialItemState;
import dev.racetriage.store.queue.TrialQueue;
import dev.racetriage.store.queue.TrialQueue.Recorded;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.store.trials.Trial;
import dev.racetriage.store.trials.TrialOutcome;
import dev.racetriage.store.workers.WorkerRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared queue of planned trials: exclusive leased claims, per-build items, guarded trial storage. */
class TrialQueueTest {
  private static final FieldKey A = FieldKey.parse("p.A.a");
  private static final FieldKey B = FieldKey.parse("p.B.b");
  private static final Duration LEASE = Duration.ofMinutes(2);

  @TempDir Path project;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
  private TriageStore store;
  private TrialQueue queue;
  private Run run;

  @BeforeEach
  void open() {
    store = TriageStore.open(project.resolve("triage.db"), project, clock);
    queue = store.trialQueue();
    store.races().upsert(new Race(A, Set.of(RaceKind.WR), List.of(), Set.of()), null);
    store.races().upsert(new Race(B, Set.of(RaceKind.WR), List.of(), Set.of()), null);
    run = store.runs().start("triage", null, "fp-1");
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void aWorkerOnlyTakesItemsOfItsOwnBuildAndOfRunningRuns() {
    long item = queue.plan(run.id(), "fp-1", A.toString(), "T#t", "{}");
    assertTrue(queue.claim("w-other", "fp-2", null, LEASE).isEmpty(), "another commit's build takes nothing");
    Run finished = store.runs().start("triage", null, "fp-1");
    queue.plan(finished.id(), "fp-1", B.toString(), "T#t", "{}");
    store.runs().finish(finished.id(), RunStatus.CANCELLED, "stopped", null);

    TrialItem claimed = queue.claim("w1", "fp-1", null, LEASE).orElseThrow();
    assertEquals(item, claimed.id());
    assertEquals(TrialItemState.CLAIMED, claimed.state());
    assertEquals("w1", claimed.claimedBy());
    assertEquals(1, claimed.attempts());
    assertTrue(queue.claim("w2", "fp-1", null, LEASE).isEmpty(),
        "the claimed item is taken, and a finished run's items are not offered");
  }

  @Test
  void anExpiredLeaseIsReclaimedAndTheOldHolderCanNoLongerStoreOrFinish() {
    long item = queue.plan(run.id(), "fp-1", A.toString(), "T#t", "{}");
    queue.claim("w1", "fp-1", run.id(), LEASE).orElseThrow();
    assertEquals(Recorded.STORED, queue.recordTrial(item, "w1", LEASE, trial(A, 1), run.id(), "k1"));
    clock.advance(LEASE.plusSeconds(1)); // w1 was killed: its lease runs out
    TrialItem again = queue.claim("w2", "fp-1", run.id(), LEASE).orElseThrow();
    assertEquals(item, again.id());
    assertEquals(2, again.attempts());

    assertEquals(Recorded.CLAIM_LOST, queue.recordTrial(item, "w1", LEASE, trial(A, 2), run.id(), "k2"));
    assertFalse(queue.complete(item, "w1", "[]"));
    assertEquals(Recorded.ALREADY_STORED, queue.recordTrial(item, "w2", LEASE, trial(A, 1), run.id(), "k1"),
        "the trial w1 stored under the same inputs is not stored twice");
    assertEquals(Recorded.STORED, queue.recordTrial(item, "w2", LEASE, trial(A, 2), run.id(), "k2"));
    assertTrue(queue.complete(item, "w2", "[\"outcomes\"]"));

    assertEquals(2, store.trials().forRace(A).size(), "one trial per inputs key: none lost, none counted twice");
    assertEquals(Map.of("w1", 1L, "w2", 1L), queue.trialsByWorker(run.id()));
    TrialItem done = queue.find(item).orElseThrow();
    assertEquals(TrialItemState.DONE, done.state());
    assertEquals("[\"outcomes\"]", done.outcomes());
  }

  @Test
  void aDecidedRaceSkipsItsPendingUnitsAndTellsTheRunningOnes() {
    long first = queue.plan(run.id(), "fp-1", A.toString(), "T#one", "{}");
    long second = queue.plan(run.id(), "fp-1", A.toString(), "T#two", "{}");
    long third = queue.plan(run.id(), "fp-1", A.toString(), "T#three", "{}");
    long other = queue.plan(run.id(), "fp-1", B.toString(), "T#one", "{}");
    queue.claim("w1", "fp-1", null, LEASE).orElseThrow();
    queue.claim("w2", "fp-1", null, LEASE).orElseThrow();
    assertFalse(queue.raceDecided(run.id(), A.toString()));
    assertFalse(queue.decide(first, "w2"), "only the holder decides");
    assertTrue(queue.decide(first, "w1"));
    assertTrue(queue.raceDecided(run.id(), A.toString()));
    assertEquals(TrialItemState.CLAIMED, queue.find(second).orElseThrow().state(), "w2 stops at its next run");
    assertEquals(TrialItemState.SKIPPED, queue.find(third).orElseThrow().state());
    assertEquals(TrialItemState.PENDING, queue.find(other).orElseThrow().state(), "other races go on");
    assertEquals(other, queue.claim("w1", "fp-1", null, LEASE).orElseThrow().id());
  }

  @Test
  void aReleasedItemIsRetriedThenGivenUp() {
    long item = queue.plan(run.id(), "fp-1", A.toString(), "T#t", "{}");
    for (int attempt = 1; attempt <= TrialQueue.MAX_ATTEMPTS; attempt++) {
      queue.claim("w" + attempt, "fp-1", null, LEASE).orElseThrow();
      assertTrue(queue.release(item, "w" + attempt, "no module m in this checkout"));
    }
    TrialItem failed = queue.find(item).orElseThrow();
    assertEquals(TrialItemState.FAILED, failed.state());
    assertEquals("no module m in this checkout", failed.error());
    assertTrue(queue.claim("w9", "fp-1", null, LEASE).isEmpty());
  }

  @Test
  void cancellingARunEndsItsItems() {
    queue.plan(run.id(), "fp-1", A.toString(), "T#t", "{}");
    queue.plan(run.id(), "fp-1", B.toString(), "T#t", "{}");
    queue.claim("w1", "fp-1", null, LEASE).orElseThrow();
    assertEquals(2, queue.cancel(run.id(), "the triage was interrupted"));
    assertEquals(2L, queue.counts(run.id()).get(TrialItemState.SKIPPED));
    assertEquals(0L, queue.counts(null).get(TrialItemState.PENDING));
  }

  /** Claimers in several threads, each with its own connection to the file, never take the same item twice. */
  @Test
  void concurrentClaimersTakeEveryItemExactlyOnce() throws Exception {
    int items = 40;
    for (int i = 0; i < items; i++) {
      queue.plan(run.id(), "fp-1", A.toString(), "T#t" + i, "{}");
    }
    List<Long> taken = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      String worker = "w" + w;
      threads.add(new Thread(() -> {
        try (TriageStore own = TriageStore.open(project.resolve("triage.db"), project)) {
          start.await();
          for (var item = own.trialQueue().claim(worker, "fp-1", null, LEASE); item.isPresent();
              item = own.trialQueue().claim(worker, "fp-1", null, LEASE)) {
            taken.add(item.get().id());
            own.trialQueue().complete(item.get().id(), worker, "[]");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }));
    }
    threads.forEach(Thread::start);
    start.countDown();
    for (Thread t : threads) t.join();
    assertEquals(items, taken.size());
    assertEquals(items, Set.copyOf(taken).size(), "no item claimed twice");
    assertEquals((long) items, queue.counts(run.id()).get(TrialItemState.DONE));
  }

  @Test
  void workersReportThemselvesAndTheirCounts() {
    String id = store.workers().register("ci-3", 4242, "/src/p", "abc123");
    store.workers().heartbeat(id, "WORKING", "fp-1", "p.A.a with T#t");
    long item = queue.plan(run.id(), "fp-1", A.toString(), "T#t", "{}");
    queue.claim(id, "fp-1", null, LEASE).orElseThrow();
    queue.recordTrial(item, id, LEASE, trial(A, 1), run.id(), "k1");
    queue.complete(item, id, "[]");
    WorkerRecord w = store.workers().find(id).orElseThrow();
    assertEquals("ci-3", w.host());
    assertEquals(4242, w.pid());
    assertEquals("fp-1", w.fingerprint());
    assertEquals(1, w.itemsDone());
    assertEquals(1, w.trialsDone());
    assertTrue(w.alive(clock.instant(), Duration.ofSeconds(60)));
    clock.advance(Duration.ofMinutes(5));
    assertFalse(w.alive(clock.instant(), Duration.ofSeconds(60)), "silent for too long");
    assertEquals(List.of(id), store.workers().list().stream().map(WorkerRecord::id).toList());
  }

  private static Trial trial(FieldKey field, long seed) {
    return new Trial(field, "T#t", "sc", seed, TrialOutcome.PASS, Duration.ofMillis(5), 1, 0, null);
  }
}
