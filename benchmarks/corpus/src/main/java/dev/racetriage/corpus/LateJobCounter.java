package dev.racetriage.corpus;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * {@link JobPipeline}'s counter, racy: the producer counts its attempt after it has put the job in the queue, so the
 * put orders nothing of that update with the consumer's (issue 22: counters behind j.u.c hand-offs, the racy
 * version).
 *
 * <p>Racy field: {@code Job.attempts} — destructive: the consumer's increment may read the count from before the
 * producer's (the initial 0, which the put does order before it) and one attempt is lost.
 */
public final class LateJobCounter {
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

  public Job produce() throws InterruptedException {
    Job job = new Job();
    queue.put(job);
    job.attempt(); // too late: after the hand-off
    return job;
  }

  public void consume() throws InterruptedException {
    queue.take().attempt();
  }
}
