package dev.racetriage.launcher;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Remembers which tests and containers existed when the run began (discovery) and each one's parent, so a test can
 * be named by its <em>unit</em>: the nearest ancestor-or-self that existed at discovery. A JVM continuing after a hang
 * or a crash can skip a unit by unique id; it cannot skip a parameterized invocation, which exists only while its
 * template runs, so the template is the unit.
 */
final class TestTree implements TestExecutionListener {
  private final Set<String> discovered = ConcurrentHashMap.newKeySet();
  private final Map<String, String> parents = new ConcurrentHashMap<>();

  @Override
  public void testPlanExecutionStarted(TestPlan plan) {
    Set<TestIdentifier> seen = new HashSet<>();
    for (TestIdentifier root : plan.getRoots()) {
      walk(plan, root, seen);
    }
  }

  private void walk(TestPlan plan, TestIdentifier id, Set<TestIdentifier> seen) {
    if (!seen.add(id)) return;
    discovered.add(id.getUniqueId());
    record(id);
    for (TestIdentifier child : plan.getChildren(id)) {
      walk(plan, child, seen);
    }
  }

  @Override
  public void dynamicTestRegistered(TestIdentifier id) {
    record(id);
  }

  @Override
  public void executionStarted(TestIdentifier id) {
    record(id);
  }

  private void record(TestIdentifier id) {
    id.getParentId().ifPresent(parent -> parents.put(id.getUniqueId(), parent));
  }

  /** The nearest ancestor-or-self of {@code uniqueId} that existed at discovery ({@code uniqueId} if none is known). */
  String unitOf(String uniqueId) {
    for (String id = uniqueId; id != null; id = parents.get(id)) {
      if (discovered.contains(id)) return id;
    }
    return uniqueId;
  }
}
