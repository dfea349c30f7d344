package dev.racetriage.runner.fork;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * Runs a selection with a limit per test, and keeps going when one test stops its JVM. A test past its limit makes
 * the launcher's watchdog report it {@code HUNG} and halt the JVM; a test that ends the JVM ({@code System.exit}, a
 * crash) is {@code CRASHED}; a JVM wedged beyond the watchdog (a GC death spiral) is killed at the whole-JVM
 * {@code backstop} and its running test is {@code TIMED_OUT}. In each case a fresh JVM runs what is left: it skips
 * ({@code --skip-ids}) every test that finished and the unit that stopped the previous JVM (the test, or for a
 * parameterized invocation its template). Attempt {@code n} writes {@code results-n.jsonl} and {@code output-n.log}
 * in the work directory; the result merges them.
 *
 * <p>It stops when a JVM completes, when a JVM stopped without naming a test to skip (a crash outside any test: a
 * fresh JVM would do the same), or after {@code maxAttempts} JVMs.
 */
public final class ContinuingTestRun {
  /** Enough for a handful of hung tests; each further JVM costs a start-up and a full limit. */
  public static final int DEFAULT_MAX_ATTEMPTS = 10;

  private final TestJvm jvm;
  private final int maxAttempts;

  public ContinuingTestRun(TestJvm jvm) {
    this(jvm, DEFAULT_MAX_ATTEMPTS);
  }

  public ContinuingTestRun(TestJvm jvm, int maxAttempts) {
    if (maxAttempts < 1) throw new IllegalArgumentException("maxAttempts must be at least 1, not " + maxAttempts);
    this.jvm = jvm;
    this.maxAttempts = maxAttempts;
  }

  /** The same agent options (or none: the baseline) for every JVM. */
  public TestRunResult run(TestSelection selection, Optional<String> agentOptions, TestLimits limits, Duration backstop,
      Path workDir) throws IOException, InterruptedException {
    return run(selection, attempt -> agentOptions, limits, backstop, workDir);
  }

  /**
   * {@code agentOptionsForAttempt}: the agent options of attempt 1, 2, … — so each detection JVM can write its report to
   * a file of its own ({@code out=…/races-2.jsonl}) instead of replacing the previous one's.
   */
  public TestRunResult run(TestSelection selection, IntFunction<Optional<String>> agentOptionsForAttempt,
      TestLimits limits, Duration backstop, Path workDir) throws IOException, InterruptedException {
    return run(selection, agentOptionsForAttempt, limits, backstop, workDir, Set.of());
  }

  /** {@code skipFirst}: unique ids not to run at all (tests that hung or crashed in an earlier phase). */
  public TestRunResult run(TestSelection selection, IntFunction<Optional<String>> agentOptionsForAttempt,
      TestLimits limits, Duration backstop, Path workDir, Set<String> skipFirst) throws IOException, InterruptedException {
    Files.createDirectories(workDir);
    List<String> limitOptions = limits.launcherArguments(workDir.resolve("test-limits.tsv"));
    Map<String, TestOutcome> outcomes = new LinkedHashMap<>();
    Set<String> skip = new LinkedHashSet<>(skipFirst);
    List<Path> resultsFiles = new ArrayList<>();
    List<Path> logs = new ArrayList<>();
    Duration elapsed = Duration.ZERO;
    boolean timedOut = false;
    TestRunResult last = null;
    for (int n = 1; n <= maxAttempts; n++) {
      List<String> options = new ArrayList<>(limitOptions);
      if (!skip.isEmpty()) {
        Path skipFile = workDir.resolve("skip-ids-" + n + ".txt");
        Files.write(skipFile, skip);
        options.add("--skip-ids");
        options.add(skipFile.toString());
      }
      ResultsReader.Attempt attempt = jvm.attempt(selection, agentOptionsForAttempt.apply(n), options, backstop,
          workDir.resolve("results-" + n + ".jsonl"), workDir.resolve("output-" + n + ".log"));
      last = attempt.run();
      resultsFiles.add(last.results());
      logs.add(last.log());
      elapsed = elapsed.plus(last.elapsed());
      timedOut |= last.timedOut();
      // a template whose invocations ran in an earlier JVM may run again after a restart: the first outcome stands
      last.outcomes().forEach(o -> outcomes.putIfAbsent(o.id(), o));
      if (last.completed() || !skip.addAll(attempt.stoppedUnits())) {
        break;
      }
      outcomes.values().stream().filter(ContinuingTestRun::finished).forEach(o -> skip.add(o.id()));
    }
    return new TestRunResult(new ArrayList<>(outcomes.values()), last.completed(), timedOut, last.exitCode(), elapsed,
        last.results(), last.log(), resultsFiles, logs);
  }

  private static boolean finished(TestOutcome o) {
    return switch (o.status()) {
      case PASSED, FAILED, ABORTED, SKIPPED -> true;
      case HUNG, TIMED_OUT, CRASHED -> false; // skipped through their units
    };
  }
}
