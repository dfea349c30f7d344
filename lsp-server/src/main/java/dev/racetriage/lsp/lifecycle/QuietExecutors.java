package dev.racetriage.lsp.lifecycle;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The server's thread pools. Their threads write to the client (LSP4J sends a response or notification on the thread
 * that completes it), so they are stopped with {@code shutdown()}, never interrupted: interrupting a thread that is
 * writing to a socket or pipe channel closes the channel for good, and the client would never see the answer to
 * {@code shutdown}. Delayed and periodic tasks are dropped at shutdown.
 */
public final class QuietExecutors {
  private QuietExecutors() {}

  public static ScheduledThreadPoolExecutor scheduled(String name) {
    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, daemon(name));
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
    executor.setRemoveOnCancelPolicy(true);
    return executor;
  }

  public static ExecutorService fixed(String name, int threads) {
    return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
        daemon(name));
  }

  private static ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
