package dev.racetriage.launcher;

import dev.racetriage.agent.detect.JsonText;
import java.util.HashMap;
import java.util.Map;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Writes a {@code started} line per test (with its {@code unit}, see {@link TestTree}) and a {@code finished} line, a {@code finished} line for every container that
 * fails (a failing {@code @BeforeAll} or class initialiser fails its tests without running them), and the counts.
 */
final class ResultsListener implements TestExecutionListener {
  private final ResultsFile results;
  private final TestTree tree;
  private final Map<String, Long> startNanos = new HashMap<>();
  private int tests;
  private int passed;
  private int failed;
  private int aborted;
  private int skipped;

  ResultsListener(ResultsFile results, TestTree tree) {
    this.results = results;
    this.tree = tree;
  }

  @Override
  public void executionStarted(TestIdentifier id) {
    synchronized (this) {
      startNanos.put(id.getUniqueId(), System.nanoTime());
    }
    if (id.isTest()) {
      // the unit: what a JVM continuing after a crash in this test skips
      StringBuilder line = new StringBuilder();
      open(line, "started", id).name("unit").value(tree.unitOf(id.getUniqueId())).endObject();
      results.write(line);
      AgentGlue.testStarted(testName(id));
    }
  }

  /** {@code pkg.Class#method}, the name the triage store gives a test; the display name for other sources. */
  static String testName(TestIdentifier id) {
    TestSource source = id.getSource().orElse(null);
    if (source instanceof MethodSource method) {
      return method.getClassName() + "#" + method.getMethodName();
    }
    return id.getDisplayName();
  }

  @Override
  public void executionSkipped(TestIdentifier id, String reason) {
    if (!id.isTest()) {
      return;
    }
    synchronized (this) {
      skipped++;
    }
    StringBuilder line = new StringBuilder();
    JsonText json = open(line, "skipped", id);
    json.name("reason").value(reason).endObject();
    results.write(line);
  }

  @Override
  public void executionFinished(TestIdentifier id, TestExecutionResult result) {
    if (id.isTest()) {
      AgentGlue.testFinished();
    }
    boolean failure = result.getStatus() != TestExecutionResult.Status.SUCCESSFUL;
    if (!id.isTest() && !failure) {
      return;
    }
    long millis;
    synchronized (this) {
      Long start = startNanos.remove(id.getUniqueId());
      millis = start == null ? 0 : (System.nanoTime() - start) / 1_000_000;
      if (id.isTest()) {
        tests++;
        switch (result.getStatus()) {
          case SUCCESSFUL -> passed++;
          case FAILED -> failed++;
          case ABORTED -> aborted++;
        }
      } else if (result.getStatus() == TestExecutionResult.Status.FAILED) {
        failed++;
      }
    }
    StringBuilder line = new StringBuilder();
    JsonText json = open(line, "finished", id);
    json.name("status").value(status(result)).name("millis").value(millis);
    result.getThrowable().ifPresent(t -> ResultsFile.failure(json, t));
    json.endObject();
    results.write(line);
  }

  void listed(TestPlan plan) {
    for (TestIdentifier root : plan.getRoots()) {
      list(plan, root);
    }
  }

  private void list(TestPlan plan, TestIdentifier id) {
    if (id.isTest()) {
      results.write(line("discovered", id));
    }
    for (TestIdentifier child : plan.getChildren(id)) {
      list(plan, child);
    }
  }

  void summary(long millis) {
    StringBuilder line = new StringBuilder();
    JsonText json = new JsonText(line).beginObject().name("event").value("summary");
    synchronized (this) {
      json.name("tests").value(tests).name("passed").value(passed).name("failed").value(failed)
          .name("aborted").value(aborted).name("skipped").value(skipped);
    }
    json.name("millis").value(millis);
    long heap = HeapPeak.bytes();
    if (heap >= 0) {
      json.name("heapPeakBytes").value(heap).name("heapMaxBytes").value(Runtime.getRuntime().maxMemory());
    }
    json.endObject();
    results.write(line);
  }

  private static String status(TestExecutionResult result) {
    return switch (result.getStatus()) {
      case SUCCESSFUL -> "passed";
      case FAILED -> "failed";
      case ABORTED -> "aborted";
    };
  }

  private static StringBuilder line(String event, TestIdentifier id) {
    StringBuilder line = new StringBuilder();
    open(line, event, id).endObject();
    return line;
  }

  /** Starts {@code {"event", "id", "kind", "class", "method", "name"}}; the caller adds members and closes it. */
  private static JsonText open(StringBuilder line, String event, TestIdentifier id) {
    JsonText json = new JsonText(line).beginObject()
        .name("event").value(event)
        .name("id").value(id.getUniqueId())
        .name("kind").value(id.isTest() ? "test" : "container");
    TestSource source = id.getSource().orElse(null);
    if (source instanceof MethodSource method) {
      json.name("class").value(method.getClassName()).name("method").value(method.getMethodName());
    } else if (source instanceof ClassSource type) {
      json.name("class").value(type.getClassName());
    }
    return json.name("name").value(id.getDisplayName());
  }
}
