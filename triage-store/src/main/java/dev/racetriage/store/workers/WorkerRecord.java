package dev.racetriage.store.workers;

import java.time.Duration;
import java.time.Instant;

/**
 * A worker process as it last reported itself: where it runs, the checkout and build it runs trials of, what it is
 * doing ({@code state}: BUILDING, IDLE, WORKING, STOPPED, FAILED), and how much it has done.
 */
public record WorkerRecord(String id, String host, long pid, String project, String commit, String fingerprint,
                           String state, Instant startedAt, Instant heartbeatAt, int itemsDone, int trialsDone,
                           String message) {

  /** Whether it reported within {@code within} of {@code now} and has not stopped: it is presumably still working. */
  public boolean alive(Instant now, Duration within) {
    return !"STOPPED".equals(state) && !"FAILED".equals(state) && heartbeatAt.plus(within).isAfter(now);
  }
}
