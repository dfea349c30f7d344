package dev.racetriage.launcher;

import dev.racetriage.launcher.select.TestSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Chooses, in a discovered test plan, what to run when not every discovered test may: the methods a {@code -Dtest}
 * method filter names, less what {@code --skip-ids} names. The answer is the fewest unique ids that cover exactly the
 * kept tests (a class whose every test is kept is one id), to be run with unique-id selectors. It works on the plan,
 * not as a post-discovery filter, because a parameterized or factory method is a childless container at discovery
 * and its invocations appear only while it runs.
 */
final class PlanPruning {
  private final TestPlan plan;
  private final TestSpec methodSpec;
  private final Set<String> skip;

  private PlanPruning(TestPlan plan, TestSpec methodSpec, Set<String> skip) {
    this.plan = plan;
    this.methodSpec = methodSpec;
    this.skip = skip;
  }

  /** {@code methodSpec} may be null (no method filter). */
  static List<String> keep(TestPlan plan, TestSpec methodSpec, Set<String> skip) {
    PlanPruning pruning = new PlanPruning(plan, methodSpec, skip);
    List<String> ids = new ArrayList<>();
    for (TestIdentifier engine : plan.getRoots()) {
      // an engine's own id is not a selector every engine resolves: name its children
      for (TestIdentifier child : plan.getChildren(engine)) {
        List<String> part = pruning.partial(child);
        if (part == null) {
          ids.add(child.getUniqueId());
        } else {
          ids.addAll(part);
        }
      }
    }
    return ids;
  }

  /** Null when everything under {@code node} is kept; else the ids that cover its kept part (maybe none). */
  private List<String> partial(TestIdentifier node) {
    if (skip.contains(node.getUniqueId())) return List.of();
    Set<TestIdentifier> children = plan.getChildren(node);
    if (children.isEmpty()) return runs(node) ? null : List.of();
    List<String> parts = new ArrayList<>();
    boolean all = true;
    for (TestIdentifier child : children) {
      List<String> part = partial(child);
      if (part == null) {
        parts.add(child.getUniqueId());
      } else {
        all = false;
        parts.addAll(part);
      }
    }
    return all ? null : parts;
  }

  private boolean runs(TestIdentifier leaf) {
    if (methodSpec == null) return true;
    TestSource source = leaf.getSource().orElse(null);
    if (!(source instanceof MethodSource method)) return true; // Surefire's method filter passes other sources
    String name = method.getMethodName();
    int bracket = name.indexOf('[');
    return methodSpec.runsMethod(method.getClassName(), name)
        || (bracket > 0 && methodSpec.runsMethod(method.getClassName(), name.substring(0, bracket)));
  }
}
