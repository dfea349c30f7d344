package dev.racetriage.corpus;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Jobs with plain counters, each updated on one thread at a time: the producer hands a job to the consumer through a
 * blocking queue, the consumer hands it to a pool task through {@code submit} and waits for it. Every hand-off orders
 * the sender's updates before the receiver's (java.util.concurrent's memory consistency effects).
 *
 * <p>Race-free: no row in {@code expected.tsv}; the prefilter cannot tell which job each update touches and may list
 * {@code Job.attempts} only at low confidence.
 */
public final class JobPipeline {
  public static final class Job {
    private int attempts;

    void attempt() {
      attempts++;
    }

    public int attempts() {
      return attempts;
    }
  }

  private final BlockingQueue<Job> queue = new LinkedBlockingQueue<>();

  public void produce(int jobs) throws InterruptedException {
    for (int i = 0; i < jobs; i++) {
      Job job = new Job();
      job.attempt();
      queue.put(job);
    }
  }

  public int consume(int jobs, ExecutorService pool) throws Exception {
    int total = 0;
    for (int i = 0; i < jobs; i++) {
      Job job = queue.take();
      job.attempt();
      Future<?> retried = pool.submit(() -> job.attempt());
      retried.get();
      total += job.attempts();
    }
    return total;
  }
}
