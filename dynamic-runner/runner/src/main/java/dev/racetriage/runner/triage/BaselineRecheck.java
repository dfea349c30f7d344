package dev.racetriage.runner.triage;

import dev.racetriage.runner.fork.TestJvm;
import dev.racetriage.runner.fork.TestOutcome;
import dev.racetriage.runner.fork.TestRunResult;
import dev.racetriage.runner.fork.TestSelection;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Step 2b of the pipeline: the tests that failed their baseline (an assertion or an exception, not a hang or a crash)
 * run again without the agent, in fresh JVMs, up to {@link #RERUNS} times or until each has passed once. A test that
 * fails every time is broken without any race's help: its races are flaky and get no trials. A test that passes in
 * some rerun fails intermittently — often because of the very race under study (Peterson's lock without volatile
 * fails natively on x86's store buffer in about 1 % of runs) — so its races are tried, with {@code sc} as the control
 * that tells a race's stale values from the test's own intermittence.
 */
final class BaselineRecheck {
  /** Fresh JVMs after the baseline's own run: a test failing 1 run in 5 natively is tried (80 %^4 ≈ 0.4 to miss). */
  static final int RERUNS = 4;

  /** What the baseline and its reruns saw of one test: how many runs, how many failed, and a passing outcome. */
  record Result(TestOutcome first, int runs, int failures, TestOutcome passed) {
    boolean intermittent() {
      return passed != null;
    }

    String describe() {
      return withoutAgent().toString();
    }

    Detection.WithoutAgent withoutAgent() {
      return new Detection.WithoutAgent(failures, runs);
    }
  }

  private BaselineRecheck() {}

  /** Re-runs {@code failed} (the baseline's failed outcomes of one module) in fresh JVMs of {@code jvm}. */
  static Map<String, Result> recheck(TestJvm jvm, List<TestOutcome> failed, Duration timeout, Path dir)
      throws IOException, InterruptedException {
    Map<String, Result> results = new LinkedHashMap<>();
    for (TestOutcome o : failed) {
      results.put(o.id(), new Result(o, 1, 1, null));
    }
    for (int rerun = 1; rerun <= RERUNS; rerun++) {
      List<String> pending = results.values().stream()
          .filter(r -> !r.intermittent() && r.first().status() == TestOutcome.Status.FAILED)
          .map(r -> r.first().id()).toList();
      if (pending.isEmpty()) {
        break;
      }
      TestRunResult again = jvm.run(new TestSelection(pending), Optional.empty(), timeout, dir.resolve("rerun-" + rerun));
      for (String id : pending) {
        Result r = results.get(id);
        Optional<TestOutcome> outcome = again.outcomes().stream().filter(o -> o.id().equals(id)).findFirst();
        boolean passed = outcome.isPresent() && outcome.get().status() == TestOutcome.Status.PASSED;
        results.put(id, new Result(r.first(), r.runs() + 1, r.failures() + (passed ? 0 : 1),
            passed ? outcome.get() : null));
      }
    }
    return results;
  }
}
