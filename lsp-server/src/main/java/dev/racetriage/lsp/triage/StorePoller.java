package dev.racetriage.lsp.triage;

import dev.racetriage.lsp.lifecycle.ClientLog;
import dev.racetriage.lsp.lifecycle.QuietExecutors;
import java.util.Optional;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Asks the store, every poll interval, whether anything changed (one cheap query: its data version) and what the
 * daemon is doing. The daemon runs in another process, so polling is how new verdicts reach the editor.
 */
public final class StorePoller implements AutoCloseable {
  private final TriageConnection triage;
  private final Runnable onNewData;
  private final Consumer<Optional<DaemonActivity>> onActivity;
  private final ClientLog log;
  private final ScheduledThreadPoolExecutor executor = QuietExecutors.scheduled("racetriage-store-poll");
  private ScheduledFuture<?> task;
  private long lastVersion = Long.MIN_VALUE;

  public StorePoller(
      TriageConnection triage, Runnable onNewData, Consumer<Optional<DaemonActivity>> onActivity, ClientLog log) {
    this.triage = triage;
    this.onNewData = onNewData;
    this.onActivity = onActivity;
    this.log = log;
  }

  /** (Re)starts polling at the given interval. */
  public synchronized void start(long intervalMillis) {
    if (task != null) {
      task.cancel(false);
    }
    task = executor.scheduleWithFixedDelay(this::pollQuietly, 0, intervalMillis, TimeUnit.MILLISECONDS);
  }

  /** Polls now, on the caller's thread: tests and the benchmark use it instead of waiting for the timer. */
  public synchronized void pollNow() {
    triage.connectIfNeeded();
    long version = triage.read(TriageDatabase::dataVersion).orElse(Long.MIN_VALUE);
    if (version != lastVersion) {
      lastVersion = version;
      onNewData.run();
    }
    onActivity.accept(triage.read(TriageDatabase::activity).flatMap(a -> a));
  }

  private void pollQuietly() {
    try {
      pollNow();
    } catch (RuntimeException e) {
      // a scheduled task that throws is silently cancelled: log and keep polling instead
      log.error("racetriage: polling the triage database failed", e);
    }
  }

  /** Stops polling and waits (briefly) for a poll in flight, so nothing touches the database afterwards. */
  @Override
  public void close() {
    executor.shutdown();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
