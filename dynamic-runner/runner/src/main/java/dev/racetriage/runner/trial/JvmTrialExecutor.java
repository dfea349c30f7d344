package dev.racetriage.runner.trial;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racetriage.runner.fork.TestJvm;
import dev.racetriage.runner.fork.TestOutcome;
import dev.racetriage.runner.fork.TestRunResult;
import dev.racetriage.runner.fork.TestSelection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Runs a trial in a fresh JVM: the one test, the agent in jumble mode on the one field. The agent's report gives
 * the reads and stale reads of the field ({@code {"type":"jumble","field":…,"reads":N,"staleReads":M}} lines).
 */
public final class JvmTrialExecutor implements TrialExecutor {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Function<String, TestJvm> jvmForTest;
  private final TrialLimits limits;
  private final Path workDir;
  private final AtomicLong counter = new AtomicLong();
  private final boolean keepWork;

  /**
   * @param jvmForTest     the test JVM of the module that holds a test (by unique id)
   * @param timeoutForTest each test's deadline, from its baseline duration
   */
  public JvmTrialExecutor(Function<String, TestJvm> jvmForTest, Function<String, Duration> timeoutForTest, Path workDir) {
    this(jvmForTest, new TrialLimits(timeoutForTest, "the test's trial limit", Duration.ZERO), workDir, true);
  }

  /** With {@code limits} instead of a fixed limit per test (a test's own slack, say). */
  JvmTrialExecutor(Function<String, TestJvm> jvmForTest, TrialLimits limits, Path workDir) {
    this(jvmForTest, limits, workDir, true);
  }

  /**
   * @param limits   each run's limit: the test's static one, then one learned from the pair's {@code sc} runs
   * @param keepWork false: the files of a trial that passed are deleted once it is read (its outcome has all of it)
   */
  public JvmTrialExecutor(Function<String, TestJvm> jvmForTest, TrialLimits limits, Path workDir, boolean keepWork) {
    this.jvmForTest = jvmForTest;
    this.limits = limits;
    this.workDir = workDir;
    this.keepWork = keepWork;
  }

  /** Deletes a finished trial's directory unless the user asked to keep the work files. */
  void discard(Path dir) {
    if (keepWork || dir == null || !Files.isDirectory(dir)) return;
    try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // a file still held open by a dying JVM: it is cleaned with the work directory by the next triage
    }
  }

  /** The test JVM of the module that holds the test. */
  TestJvm jvm(String testId) {
    return jvmForTest.apply(testId);
  }

  /** Each run's limit, learned from the {@code sc} runs as they finish. */
  TrialLimits limits() {
    return limits;
  }

  /**
   * A run killed at its limit: a {@code TIMEOUT} whose duration is the limit (never a warm-up run: its duration is
   * evidence of a slowdown), whose evidence says how the limit was set and names the machine's load when it was high.
   */
  static TrialOutcome timedOut(TrialSpec spec, TrialLimits.Limit limit, String replay, boolean freshJvm) {
    String load = MachineLoad.describeIfHigh();
    return new TrialOutcome(spec, TrialOutcome.Result.TIMEOUT, limit.duration().toMillis(), 0, 0,
        limit.describe() + (load == null ? "" : "; " + load), replay, false, freshJvm);
  }

  /** A new, numbered directory for the files of one trial JVM. */
  Path newTrialDir() {
    return workDir.resolve("trial-" + counter.incrementAndGet());
  }

  /** The command line that reruns this one trial in a JVM of its own, reporting into {@code dir}. */
  String replay(TrialSpec spec, Path dir) {
    return jvm(spec.testId()).replayCommand(TestSelection.of(spec.testId()),
        Optional.of(spec.agentOptions(dir.resolve("jumble.jsonl").toString())), dir.resolve("results.jsonl"));
  }

  @Override
  public TrialOutcome run(TrialSpec spec) throws InterruptedException {
    return runCounted(spec).outcome();
  }

  /** A trial in a fresh JVM and the writes of the field it saw (the outcome has the reads). */
  record Counted(TrialOutcome outcome, long writes) {}

  /** {@link #run}, keeping the field's write count for the trial server's faithfulness check. */
  Counted runCounted(TrialSpec spec) throws InterruptedException {
    Path dir = newTrialDir();
    Path report = dir.resolve("jumble.jsonl");
    TestJvm jvm = jvm(spec.testId());
    TestSelection selection = TestSelection.of(spec.testId());
    Optional<String> agent = Optional.of(spec.agentOptions(report.toString()));
    String replay = replay(spec, dir);
    TrialLimits.Limit limit = limits.limit(spec.fieldKey(), spec.testId(), true);
    TestRunResult run;
    try {
      run = jvm.run(selection, agent, limit.duration(), dir);
    } catch (IOException e) {
      return new Counted(new TrialOutcome(spec, TrialOutcome.Result.FAIL, 0, 0, 0,
          "the trial JVM could not start: " + e.getMessage(), replay), 0);
    }
    java.util.List<JsonNode> jumbled = jumbleLines(report);
    long[] reads = readCounts(jumbled, spec.fieldKey());
    TestOutcome test = run.outcomes().stream().filter(o -> spec.testId().equals(o.id())).findFirst().orElse(null);
    if (run.timedOut() || (test != null && test.status() == TestOutcome.Status.TIMED_OUT)) {
      TrialOutcome timeout = timedOut(spec, limit, replay, true);
      limits.record(timeout); // an sc timeout raises the pair's next limits
      return new Counted(timeout, reads[2]);
    }
    TrialOutcome.Result result;
    String failure = null;
    if (test == null) {
      result = TrialOutcome.Result.FAIL;
      failure = "the test JVM ended without running the test (exit code " + run.exitCode() + "); see " + run.log();
    } else if (test.failed()) {
      result = TrialOutcome.Result.FAIL;
      failure = test.failure() == null ? test.status().name() : test.failure().stack();
    } else {
      result = TrialOutcome.Result.PASS;
    }
    long millis = test == null ? run.elapsed().toMillis() : test.millis();
    if (result == TrialOutcome.Result.PASS) discard(dir);
    TrialOutcome outcome = new TrialOutcome(spec, result, millis, reads[0], reads[1], failure, replay)
        .withSameChoices(SharedRuns.sameChoices(spec.heuristic(), spec.fieldKey(), jumbled));
    limits.record(outcome);
    return new Counted(outcome, reads[2]);
  }

  /** {reads, staleReads, writes} of the field from the agent's report; zeros when the report is missing (JVM killed). */
  public static long[] readCounts(Path report, String field) {
    return readCounts(jumbleLines(report), field);
  }

  private static long[] readCounts(java.util.List<JsonNode> lines, String field) {
    long[] counts = new long[3];
    for (JsonNode node : lines) {
      if (field.equals(node.path("field").asText())) {
        counts[0] += node.path("reads").asLong();
        counts[1] += node.path("staleReads").asLong();
        counts[2] += node.path("writes").asLong();
      }
    }
    return counts;
  }

  /** The report's {@code jumble} lines (a torn line is left out); none when it is missing or unreadable. */
  private static java.util.List<JsonNode> jumbleLines(Path report) {
    java.util.List<JsonNode> lines = new java.util.ArrayList<>();
    if (!Files.isRegularFile(report)) return lines;
    try {
      for (String line : Files.readAllLines(report)) {
        if (line.isBlank()) continue;
        try {
          JsonNode node = JSON.readTree(line);
          if ("jumble".equals(node.path("type").asText())) lines.add(node);
        } catch (IOException torn) {
          // the line a killed JVM was writing
        }
      }
    } catch (IOException e) {
      // unreadable report: no evidence of stale reads
    }
    return lines;
  }
}
