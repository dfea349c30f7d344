package dev.racetriage.prefilter;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22's prefilter shapes: array fields copied, filled and cloned by JDK bulk calls are element accesses; a lazily cached hash in a value class hashed by worker threads (also where the JDK calls
 * hashCode: map keys) is a candidate; objects passed on through java.util.concurrent hand-offs give no
 * high-confidence candidate, and a write before a queue's put or a latch's countDown is ordered with a read after
 * the take or await.
 */
class HandoffsCachesAndBulkCopiesTest {

  @TempDir Path dir;

  @Test
  void bulkCopiesFillsAndClonesOfArrayFieldsAreElementAccesses() {
    Analysis analysis = Fixtures.scan(dir, "BulkArrayCopiesBad");
    Expect.candidate(analysis, "fixtures.BulkArrayCopiesBad.samples[]");
    Expect.candidate(analysis, "fixtures.BulkArrayCopiesBad.bins[]");
    Expect.noCandidate(analysis, "fixtures.BulkArrayCopiesBad.scratch[]");
  }

  @Test
  void aCachedHashOfAValueClassUsedAsAMapKeyByPoolTasksIsACandidate() {
    Analysis analysis = Fixtures.scan(dir, "CachedHashKey", "CachedHashRereadKey", "LazyHashFromWorkersBad");
    Candidate hash = Expect.candidate(analysis, "fixtures.CachedHashKey.hash");
    Expect.hasReason(hash, "runs on thread entry lambda at LazyHashFromWorkersBad.java");
    Expect.candidate(analysis, "fixtures.CachedHashRereadKey.hash");
  }

  @Test
  void aValueClassNobodyHashesOnAnotherThreadIsNoCandidate() {
    Analysis analysis = Fixtures.scan(dir, "CachedHashKey", "CachedHashRereadKey");
    Expect.noCandidate(analysis, "fixtures.CachedHashKey.hash");
    Expect.noCandidate(analysis, "fixtures.CachedHashRereadKey.hash");
  }

  @Test
  void countersOnObjectsPassedThroughHandoffsAreAtMostLowConfidence() {
    Analysis analysis = Fixtures.scan(dir, "FP_CounterBehindHandoffs");
    for (String field : new String[] {"attempts", "bytes"}) {
      Candidate c = Expect.candidate(analysis, "fixtures.FP_CounterBehindHandoffs$Job." + field);
      assertTrue(c.confidence() <= 0.5, c.field() + " " + c.confidence() + " " + c.reasons());
      Expect.hasReason(c, "Job objects are handed between threads through java.util.concurrent");
    }
  }

  @Test
  void aCounterOnAnObjectPublishedThroughALatchIsAtMostLowConfidence() {
    Analysis analysis = Fixtures.scan(dir, "FP_LatchPublishedResult");
    Expect.noCandidate(analysis, "fixtures.FP_LatchPublishedResult.result");
    // the worker's hit() and the caller's run on different threads and the analysis does not follow the object
    Candidate hits = Expect.candidate(analysis, "fixtures.FP_LatchPublishedResult$Result.hits");
    assertTrue(hits.confidence() <= 0.5, hits.field() + " " + hits.confidence() + " " + hits.reasons());
    Expect.hasReason(hits, "Result objects are handed between threads through java.util.concurrent");
  }

  @Test
  void writesBeforeAPutOrCountDownAreOrderedWithReadsAfterTheTakeOrAwait() {
    Analysis analysis = Fixtures.scan(dir, "FP_CounterBehindHandoffs");
    Expect.noCandidate(analysis, "fixtures.FP_CounterBehindHandoffs.produced");
    Expect.noCandidate(analysis, "fixtures.FP_CounterBehindHandoffs.latest");
  }

  @Test
  void aWriteAfterThePutStillRacesWithTheReadAfterTheTake() {
    Candidate count = Expect.candidate(Fixtures.scan(dir, "QueuePublishedTooEarlyBad"),
        "fixtures.QueuePublishedTooEarlyBad.count");
    assertTrue(count.confidence() > 0.5, count.reasons().toString());
  }
}
