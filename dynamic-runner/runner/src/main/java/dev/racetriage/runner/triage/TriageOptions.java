package dev.racetriage.runner.triage;

import dev.racetriage.store.engine.StoreLocation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What a triage run does. {@code database} null means the project's default ({@code .racetriage/triage.db});
 * {@code budget} null means no limit. {@code earlyStop}: the sequential stopping rule (off: every heuristic runs
 * {@code trials} times); {@code repeatInJvm}: repeat a test inside one trial JVM where it allows it (off: a JVM per
 * trial); {@code fields}: run trials only for these field keys (empty: every race); the others keep their stored
 * verdicts; {@code detectRuns}: how many times the detection JVM runs the tests under the agent (the races are the
 * union of all runs — a race whose racing pair is unordered only in some schedules shows in one run of several);
 * {@code tests}: a Surefire {@code -Dtest} pattern choosing the tests (null: the tests {@code mvn test} runs);
 * {@code testTimeout}: each test's limit in the baseline; {@code detectTimeoutFactor}: each test's limit under the
 * agent, as a multiple of its baseline; {@code keepWork}: keep every trial's logs in {@code .racetriage/work} (else the
 * logs of passing trials are deleted as they finish); {@code includeLibraries}: also triage races on fields of classes the
 * project did not compile (libraries), which are otherwise named in a warning and left out.
 */
public record TriageOptions(
    Path project,
    StoreLocation database,
    boolean detectOnly,
    int trials,
    List<String> heuristics,
    int jobs,
    Duration budget,
    Duration buildTimeout,
    Duration baselineTimeout,
    boolean earlyStop,
    boolean repeatInJvm,
    List<String> fields,
    int detectRuns,
    String tests,
    Duration testTimeout,
    int detectTimeoutFactor,
    boolean keepWork,
    boolean includeLibraries,
    int maxArrayElements,
    Prediction predict,
    boolean containers) {

  /**
   * How much of each detection JVM's run the agent's predictive analysis (WCP) covers: {@code BOUNDED} (the default)
   * its first events up to the agent's budget ({@code predictEvents}; past it detection goes on without prediction
   * and the triage says so), {@code ALL} ({@code --predict}) the whole run at whatever it costs, {@code OFF}
   * ({@code --no-predict}) none.
   */
  public enum Prediction { OFF, BOUNDED, ALL }

  /** The agent's default bound on the elements of an array it checks one by one (its {@code arrays=} option). */
  public static final int DEFAULT_MAX_ARRAY_ELEMENTS = 1 << 22;

  /** A test's limit in the baseline, where nothing was measured yet (Surefire has none; a hang must end somewhere). */
  public static final Duration DEFAULT_TEST_TIMEOUT = Duration.ofMinutes(3);
  /** A test under the agent may take this many times its baseline (detect mode costs 2-3x, 10x on bad cases). */
  public static final int DEFAULT_DETECT_TIMEOUT_FACTOR = 10;

  /** Detection runs by default: three runs in one JVM took about 1 s more than one on the corpus (RESULTS.md). */
  public static final int DEFAULT_DETECT_RUNS = 3;

  public static final List<String> ALL_HEURISTICS =
      List.of("sc", "oldest", "oldest-but-different", "random", "random-but-different");

  public TriageOptions {
    if (maxArrayElements < 0) {
      throw new IllegalArgumentException("--max-array-elements must be 0 or more, not " + maxArrayElements);
    }
    heuristics = List.copyOf(heuristics);
    fields = List.copyOf(fields);
    for (String field : fields) {
      try {
        dev.racetriage.store.FieldKey.parse(field);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--field: " + e.getMessage());
      }
    }
    if (trials < 1) throw new IllegalArgumentException("--trials must be at least 1, not " + trials);
    if (detectRuns < 1) throw new IllegalArgumentException("--detect-runs must be at least 1, not " + detectRuns);
    if (jobs < 1) throw new IllegalArgumentException("--jobs must be at least 1, not " + jobs);
    if (detectTimeoutFactor < 1) {
      throw new IllegalArgumentException("--detect-timeout-factor must be at least 1, not " + detectTimeoutFactor);
    }
    if (testTimeout == null || testTimeout.isNegative() || testTimeout.isZero()) {
      throw new IllegalArgumentException("--test-timeout must be a positive duration, not " + testTimeout);
    }
    for (String h : heuristics) {
      if (!ALL_HEURISTICS.contains(h)) {
        throw new IllegalArgumentException("unknown heuristic '" + h + "' (known: " + String.join(", ", ALL_HEURISTICS) + ")");
      }
    }
  }

  /** With the default test selection (what mvn test runs), limits and work clean-up. */
  public TriageOptions(Path project, StoreLocation database, boolean detectOnly, int trials, List<String> heuristics, int jobs,
      Duration budget, Duration buildTimeout, Duration baselineTimeout, boolean earlyStop, boolean repeatInJvm,
      List<String> fields, int detectRuns) {
    this(project, database, detectOnly, trials, heuristics, jobs, budget, buildTimeout, baselineTimeout, earlyStop,
        repeatInJvm, fields, detectRuns, null, DEFAULT_TEST_TIMEOUT, DEFAULT_DETECT_TIMEOUT_FACTOR, false, false,
        DEFAULT_MAX_ARRAY_ELEMENTS);
  }

  /** With the default number of detection runs. */
  public TriageOptions(Path project, StoreLocation database, boolean detectOnly, int trials, List<String> heuristics, int jobs,
      Duration budget, Duration buildTimeout, Duration baselineTimeout, boolean earlyStop, boolean repeatInJvm,
      List<String> fields) {
    this(project, database, detectOnly, trials, heuristics, jobs, budget, buildTimeout, baselineTimeout, earlyStop,
        repeatInJvm, fields, DEFAULT_DETECT_RUNS);
  }

  /** With early stopping and in-JVM repetition on. */
  public TriageOptions(Path project, StoreLocation database, boolean detectOnly, int trials, List<String> heuristics, int jobs,
      Duration budget, Duration buildTimeout, Duration baselineTimeout) {
    this(project, database, detectOnly, trials, heuristics, jobs, budget, buildTimeout, baselineTimeout, true, true, List.of());
  }

  /** With the default, bounded predictive detection. */
  public TriageOptions(Path project, StoreLocation database, boolean detectOnly, int trials, List<String> heuristics, int jobs,
      Duration budget, Duration buildTimeout, Duration baselineTimeout, boolean earlyStop, boolean repeatInJvm,
      List<String> fields, int detectRuns, String tests, Duration testTimeout, int detectTimeoutFactor,
      boolean keepWork, boolean includeLibraries, int maxArrayElements) {
    this(project, database, detectOnly, trials, heuristics, jobs, budget, buildTimeout, baselineTimeout, earlyStop,
        repeatInJvm, fields, detectRuns, tests, testTimeout, detectTimeoutFactor, keepWork, includeLibraries,
        maxArrayElements, Prediction.BOUNDED, true);
  }

  /**
   * {@code --predict} ({@link Prediction#ALL}), {@code --no-predict} ({@link Prediction#OFF}): how far the detection
   * agent's WCP reports, marked predicted, the races another schedule of the observed runs would expose.
   */
  public TriageOptions withPredict(Prediction on) {
    return new TriageOptions(project, database, detectOnly, trials, heuristics, jobs, budget, buildTimeout,
        baselineTimeout, earlyStop, repeatInJvm, fields, detectRuns, tests, testTimeout, detectTimeoutFactor, keepWork,
        includeLibraries, maxArrayElements, on, containers);
  }

  /**
   * {@code --no-containers} (false): the detection agent does not model the JDK's unsynchronised containers at their
   * call sites (its {@code containers=false}), so no container race ({@code pkg.Cls.map{}}) is reported or tried.
   */
  public TriageOptions withContainers(boolean on) {
    return new TriageOptions(project, database, detectOnly, trials, heuristics, jobs, budget, buildTimeout,
        baselineTimeout, earlyStop, repeatInJvm, fields, detectRuns, tests, testTimeout, detectTimeoutFactor, keepWork,
        includeLibraries, maxArrayElements, predict, on);
  }

  public static TriageOptions defaults(Path project) {
    return new TriageOptions(project, null, false, 20, ALL_HEURISTICS, Runtime.getRuntime().availableProcessors(),
        null, Duration.ofMinutes(10), Duration.ofMinutes(10));
  }

  public TriageOptions withDetectOnly(boolean only) {
    return new TriageOptions(project, database, only, trials, heuristics, jobs, budget, buildTimeout, baselineTimeout,
        earlyStop, repeatInJvm, fields, detectRuns, tests, testTimeout, detectTimeoutFactor, keepWork, includeLibraries,
        maxArrayElements, predict, containers);
  }

  public TriageOptions withEarlyStop(boolean on) {
    return new TriageOptions(project, database, detectOnly, trials, heuristics, jobs, budget, buildTimeout,
        baselineTimeout, on, repeatInJvm, fields, detectRuns, tests, testTimeout, detectTimeoutFactor, keepWork, includeLibraries,
        maxArrayElements, predict, containers);
  }

  public TriageOptions withFields(List<String> only) {
    return new TriageOptions(project, database, detectOnly, trials, heuristics, jobs, budget, buildTimeout,
        baselineTimeout, earlyStop, repeatInJvm, only, detectRuns, tests, testTimeout, detectTimeoutFactor, keepWork, includeLibraries,
        maxArrayElements, predict, containers);
  }

  public TriageOptions withRepeatInJvm(boolean on) {
    return new TriageOptions(project, database, detectOnly, trials, heuristics, jobs, budget, buildTimeout,
        baselineTimeout, earlyStop, on, fields, detectRuns, tests, testTimeout, detectTimeoutFactor, keepWork, includeLibraries,
        maxArrayElements, predict, containers);
  }

  public TriageOptions withBudget(Duration limit) {
    return new TriageOptions(project, database, detectOnly, trials, heuristics, jobs, limit, buildTimeout,
        baselineTimeout, earlyStop, repeatInJvm, fields, detectRuns, tests, testTimeout, detectTimeoutFactor, keepWork, includeLibraries,
        maxArrayElements, predict, containers);
  }

  public TriageOptions withDetectRuns(int runs) {
    return new TriageOptions(project, database, detectOnly, trials, heuristics, jobs, budget, buildTimeout,
        baselineTimeout, earlyStop, repeatInJvm, fields, runs, tests, testTimeout, detectTimeoutFactor, keepWork, includeLibraries,
        maxArrayElements, predict, containers);
  }
}
