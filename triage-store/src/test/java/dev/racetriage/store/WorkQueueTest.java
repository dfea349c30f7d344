package dev.racetriage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.queue.WorkItem;
import dev.racetriage.store.queue.WorkState;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

@OnEveryEngine
class WorkQueueTest {
  @Parameter TestEngine engine;

  private static final FieldKey A = FieldKey.parse("p.A.a");
  private static final FieldKey B = FieldKey.parse("p.B.b");
  private static final FieldKey C = FieldKey.parse("p.C.c");
  private static final Duration LEASE = Duration.ofMinutes(10);

  @TempDir Path project;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
  private TriageStore store;

  @BeforeEach
  void open() {
    store = TriageStore.open(engine.location(project, "triage.db"), project, clock);
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void enqueueDeduplicatesPendingItemsOfAField() {
    WorkItem first = store.queue().enqueue(A, "Cache.java changed", 0);
    WorkItem again = store.queue().enqueue(A, "Cache.java saved", 5);
    assertEquals(first.id(), again.id());
    assertEquals(5, again.priority(), "the higher priority wins");
    assertEquals("Cache.java saved", again.reason());
    store.queue().enqueue(A, "lower", 1);
    assertEquals(5, store.queue().find(first.id()).orElseThrow().priority());
    assertEquals(1, store.queue().list(WorkState.PENDING, 10).size());

    store.queue().claimNext("daemon-1", LEASE).orElseThrow();
    WorkItem whileClaimed = store.queue().enqueue(A, "changed during triage", 0);
    assertTrue(whileClaimed.id() != first.id(), "a field being triaged may be queued again for its new state");
  }

  @Test
  void claimsByPriorityThenAgeAndNeverTwice() {
    store.queue().enqueue(A, "a", 0);
    store.queue().enqueue(B, "b", 9);
    store.queue().enqueue(C, "c", 0);
    assertEquals(B, store.queue().claimNext("w1", LEASE).orElseThrow().field());
    assertEquals(A, store.queue().claimNext("w2", LEASE).orElseThrow().field());
    WorkItem c = store.queue().claimNext("w1", LEASE).orElseThrow();
    assertEquals(C, c.field());
    assertEquals("w1", c.claimedBy());
    assertEquals(1, c.attempts());
    assertEquals(clock.instant().plus(LEASE), c.leaseUntil());
    assertTrue(store.queue().claimNext("w3", LEASE).isEmpty());
  }

  @Test
  void anExpiredClaimIsClaimableAgainAndTheOldClaimerLosesIt() {
    WorkItem queued = store.queue().enqueue(A, "a", 0);
    WorkItem claimed = store.queue().claimNext("dead-daemon", LEASE).orElseThrow();
    assertEquals(queued.id(), claimed.id());
    clock.advance(LEASE.minusSeconds(1));
    assertTrue(store.queue().claimNext("new-daemon", LEASE).isEmpty(), "the lease still holds");
    clock.advance(Duration.ofSeconds(1));
    WorkItem reclaimed = store.queue().claimNext("new-daemon", LEASE).orElseThrow();
    assertEquals(queued.id(), reclaimed.id());
    assertEquals("new-daemon", reclaimed.claimedBy());
    assertEquals(2, reclaimed.attempts());
    assertFalse(store.queue().complete(queued.id(), "dead-daemon"), "a claimer whose lease ran out cannot complete");
    assertFalse(store.queue().renew(queued.id(), "dead-daemon", LEASE));
    assertTrue(store.queue().complete(queued.id(), "new-daemon"));
    WorkItem done = store.queue().find(queued.id()).orElseThrow();
    assertEquals(WorkState.DONE, done.state());
    assertEquals(clock.instant(), done.finishedAt());
    assertFalse(store.queue().complete(queued.id(), "new-daemon"), "done is final");
  }

  @Test
  void renewingKeepsTheClaim() {
    WorkItem item = store.queue().enqueue(A, "a", 0);
    store.queue().claimNext("w1", LEASE);
    clock.advance(LEASE.minusMinutes(1));
    assertTrue(store.queue().renew(item.id(), "w1", LEASE));
    clock.advance(Duration.ofMinutes(5));
    assertTrue(store.queue().claimNext("w2", LEASE).isEmpty());
  }

  @Test
  void failRecordsTheErrorAndCounts() {
    WorkItem item = store.queue().enqueue(A, "a", 0);
    store.queue().enqueue(B, "b", 0);
    store.queue().claimNext("w1", LEASE);
    assertFalse(store.queue().fail(item.id(), "someone-else", "nope"));
    assertTrue(store.queue().fail(item.id(), "w1", "mvn test-compile failed: exit 1"));
    List<WorkItem> failed = store.queue().list(WorkState.FAILED, 10);
    assertEquals(1, failed.size());
    assertEquals("mvn test-compile failed: exit 1", failed.get(0).error());
    assertEquals(1L, store.queue().counts().get(WorkState.FAILED));
    assertEquals(1L, store.queue().counts().get(WorkState.PENDING));
    assertEquals(0L, store.queue().counts().get(WorkState.DONE));
  }
}
