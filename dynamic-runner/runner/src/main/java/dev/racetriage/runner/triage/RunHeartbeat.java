package dev.racetriage.runner.triage;

import dev.racetriage.store.TriageStore;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Tells the store, every {@link #INTERVAL} (the store's own heartbeat interval), that the run is still alive, so a run whose process died without a word
 * (kill -9, a lost machine) is recognised as abandoned instead of being shown as running forever.
 */
final class RunHeartbeat implements AutoCloseable {
  static final Duration INTERVAL = dev.racetriage.store.runs.RunRepository.HEARTBEAT_INTERVAL;

  private final ScheduledExecutorService timer;

  RunHeartbeat(TriageStore store, long runId) {
    timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "racetriage-heartbeat");
      t.setDaemon(true);
      return t;
    });
    timer.scheduleAtFixedRate(() -> {
      try {
        store.runs().heartbeat(runId);
      } catch (RuntimeException e) {
        // a busy or closed store: the next beat tries again; the run itself reports store failures
      }
    }, INTERVAL.toMillis(), INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
