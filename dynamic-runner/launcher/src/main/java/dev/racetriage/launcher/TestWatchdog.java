package dev.racetriage.launcher;

import dev.racetriage.agent.detect.JsonText;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Stops the JVM when a test runs past its limit. A hung test cannot be stopped on its own (its thread may ignore
 * interrupts or hold locks), so the watchdog writes a {@code hung} line — the test, its time, its limit, a thread dump
 * excerpt and {@code resumeSkip}, the unit a continuing JVM must skip — has the agent write what it has, and halts
 * with {@link #EXIT_HUNG}. Halt, not exit: shutdown hooks could block on the hung test's locks. The runner then runs
 * the remaining tests in a fresh JVM ({@code --skip-ids}).
 */
final class TestWatchdog implements TestExecutionListener {
  static final int EXIT_HUNG = 4;
  private static final long POLL_MILLIS = 50;
  /** How long the agent may take to write its report before the JVM halts anyway. */
  private static final long FLUSH_MILLIS = 20_000;

  private record Running(TestIdentifier id, Thread thread, long startNanos, long limitMillis) {}

  private final ResultsFile results;
  private final TestTree tree;
  private final TestLimits limits;
  private final Map<String, Running> running = new ConcurrentHashMap<>();
  private final AtomicBoolean fired = new AtomicBoolean();

  TestWatchdog(ResultsFile results, TestTree tree, TestLimits limits) {
    this.results = results;
    this.tree = tree;
    this.limits = limits;
    if (limits.any()) {
      Thread watcher = new Thread(this::watch, "racetriage-test-watchdog");
      watcher.setDaemon(true);
      watcher.start();
    }
  }

  @Override
  public void executionStarted(TestIdentifier id) {
    if (!id.isTest()) return;
    long limit = limits.millisFor(id.getUniqueId());
    if (limit > 0) {
      running.put(id.getUniqueId(), new Running(id, Thread.currentThread(), System.nanoTime(), limit));
    }
  }

  @Override
  public void executionFinished(TestIdentifier id, TestExecutionResult result) {
    running.remove(id.getUniqueId());
  }

  private void watch() {
    while (true) {
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      long now = System.nanoTime();
      for (Running r : running.values()) {
        long millis = TimeUnit.NANOSECONDS.toMillis(now - r.startNanos());
        if (millis > r.limitMillis()) {
          hung(r, millis);
        }
      }
    }
  }

  private void hung(Running r, long millis) {
    if (!fired.compareAndSet(false, true)) return;
    StringBuilder line = new StringBuilder();
    JsonText json = new JsonText(line).beginObject().name("event").value("hung")
        .name("id").value(r.id().getUniqueId());
    TestSource source = r.id().getSource().orElse(null);
    if (source instanceof MethodSource method) {
      json.name("class").value(method.getClassName()).name("method").value(method.getMethodName());
    }
    json.name("name").value(r.id().getDisplayName())
        .name("millis").value(millis).name("limitMillis").value(r.limitMillis())
        .name("threads").value(ThreadDump.excerpt(r.thread()))
        .name("resumeSkip").value(tree.unitOf(r.id().getUniqueId()));
    long heap = HeapPeak.bytes();
    if (heap >= 0) {
      // this JVM halts: its summary will not name them
      json.name("heapPeakBytes").value(heap).name("heapMaxBytes").value(Runtime.getRuntime().maxMemory());
    }
    json.endObject();
    results.write(line);
    System.err.println("racetriage launcher: " + ResultsListener.testName(r.id()) + " ran " + millis
        + " ms, over its limit of " + r.limitMillis() + " ms; stopping this JVM (the thread dump is in the results file)");
    System.err.flush();
    flushAgentReport();
    Runtime.getRuntime().halt(EXIT_HUNG);
  }

  /** Lets the agent write its report, on a thread of its own: it could block on a lock the hung test holds. */
  private static void flushAgentReport() {
    Thread flush = new Thread(AgentGlue::flushReport, "racetriage-flush-report");
    flush.setDaemon(true);
    flush.start();
    try {
      flush.join(FLUSH_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
