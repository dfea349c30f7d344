package dev.racetriage.runner.triage;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What a triage run does. {@code database} null means the project's default ({@code .racetriage/triage.db});
 * {@code budget} null means no limit. {@code earlyStop}: the sequential stopping rule (off: every heuristic runs
 * {@code trials} times); {@code repeatInJvm}: repeat a test inside one trial JVM where it allows it (off: a JVM per
 * trial); {@code fields}: run trials only for these field keys (empty: every race); the others keep their stored
 * verdicts; {@code detectRuns}: how many times the detection JVM runs the tests under the agent (the races are the
 * union of all runs — a race whose racing pair is unordered only in some schedules shows in one run of several).
 */
public record TriageOptions(
    Path project,
    Path database,
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
    int detectRuns) {

  /** Detection runs by default: three runs in one JVM took about 1 s more than one on the corpus (RESULTS.md). */
  public static final int DEFAULT_DETECT_RUNS = 3;

  public static final List<String> ALL_HEURISTICS =
      List.of("sc", "oldest", "oldest-but-different", "random", "random-but-different");

  public TriageOptions {
    heuristics = List.copyOf(heuristics);
    fields = List.copyOf(fields);
    if (trials < 1) throw new IllegalArgumentException("--trials must be at least 1, not " + trials);
    if (detectRuns < 1) throw new IllegalArgumentException("--detect-runs must be at least 1, not " + detectRuns);
    if (jobs < 1) throw new IllegalArgumentException("--jobs must be at least 1, not " + jobs);
    for (String h : heuristics) {
      if (!ALL_HEURISTICS.contains(h)) {
        throw new IllegalArgumentException("unknown heuristic '" + h + "' (known: " + String.join(", ", ALL_HEURISTICS) + ")");
      }
    }
  }

  /** With the default number of detection runs. */
  public TriageOptions(Path project, Path database, boolean detectOnly, int trials, List<String> heuristics, int jobs,
      Duration budget, Duration buildTimeout, Duration baselineTimeout, boolean earlyStop, boolean repeatInJvm,
      List<String> fields) {
    this(project, database, detectOnly, trials, heuristics, jobs, budget, buildTimeout, baselineTimeout, earlyStop,
        repeatInJvm, fields, DEFAULT_DETECT_RUNS);
  }

  /** With early stopping and in-JVM repetition on. */
  public TriageOptions(Path project, Path database, boolean detectOnly, int trials, List<String> heuristics, int jobs,
      Duration budget, Duration buildTimeout, Duration baselineTimeout) {
    this(project, database, detectOnly, trials, heuristics, jobs, budget, buildTimeout, baselineTimeout, true, true, List.of());
  }

  public static TriageOptions defaults(Path project) {
    return new TriageOptions(project, null, false, 20, ALL_HEURISTICS, Runtime.getRuntime().availableProcessors(),
        null, Duration.ofMinutes(10), Duration.ofMinutes(10));
  }

  public TriageOptions withDetectOnly(boolean only) {
    return new TriageOptions(project, database, only, trials, heuristics, jobs, budget, buildTimeout, baselineTimeout,
        earlyStop, repeatInJvm, fields, detectRuns);
  }

  public TriageOptions withEarlyStop(boolean on) {
    return new TriageOptions(project, database, detectOnly, trials, heuristics, jobs, budget, buildTimeout,
        baselineTimeout, on, repeatInJvm, fields, detectRuns);
  }

  public TriageOptions withFields(List<String> only) {
    return new TriageOptions(project, database, detectOnly, trials, heuristics, jobs, budget, buildTimeout,
        baselineTimeout, earlyStop, repeatInJvm, only, detectRuns);
  }

  public TriageOptions withRepeatInJvm(boolean on) {
    return new TriageOptions(project, database, detectOnly, trials, heuristics, jobs, budget, buildTimeout,
        baselineTimeout, earlyStop, on, fields, detectRuns);
  }

  public TriageOptions withDetectRuns(int runs) {
    return new TriageOptions(project, database, detectOnly, trials, heuristics, jobs, budget, buildTimeout,
        baselineTimeout, earlyStop, repeatInJvm, fields, runs);
  }
}
