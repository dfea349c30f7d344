package dev.racetriage.runner.detect;

import com.fasterxml.jackson.databind.JsonNode;
import dev.racetriage.runner.fork.ContinuingTestRun;
import dev.racetriage.runner.fork.TestJvm;
import dev.racetriage.runner.fork.TestLimits;
import dev.racetriage.runner.fork.TestRunResult;
import dev.racetriage.runner.fork.TestSelection;
import dev.racetriage.runner.fork.TrialServerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * The detection run of one module, repeated: whether a racing write/read pair is unordered can depend on the schedule
 * (Peterson's {@code flag1} races only when the two threads overlap), so one run can miss a race that a second run
 * shows. The tests run {@code runs} times in one JVM under the agent (the launcher's trial server with plain
 * {@code run} commands: no JVM start, class loading or instrumentation per repeat); the agent's report, written when
 * the JVM exits, is the union of all runs, so a race seen by any run is detected. After each run the launcher names
 * the fields raced so far, which tells which races only a later run found.
 *
 * <p>Repeating stops early when a run leaves non-daemon threads behind (they would run into the next run) or the JVM
 * ends ({@code System.exit}: its shutdown still writes the report, as in a single run). A run that hangs gets the JVM
 * killed, which loses the report; the caller then runs the tests once in a fresh JVM (unless the first run hung:
 * a single run would hang as well).
 *
 * @param runs       runs that finished
 * @param firstRun   per raced field, the run (1-based) after which the launcher first named it; empty when the
 *                   launcher does not name raced fields (an older launcher)
 * @param timedOut   a run did not finish within its timeout and the JVM was killed
 * @param exitCode   the JVM's exit code (-1: killed)
 * @param log        the JVM's output
 * @param stopReason why fewer than the requested runs were made (null: all were)
 */
public record DetectionRuns(int runs, Map<String, Integer> firstRun, boolean timedOut, int exitCode, Path log,
    String stopReason) {

  private static final Duration QUIT_WAIT = Duration.ofMinutes(1);

  public DetectionRuns {
    firstRun = Map.copyOf(firstRun);
  }

  /**
   * One run of the selection under the agent with a limit per test: a test past its limit stops its JVM (the agent's
   * streamed report keeps what it saw) and a fresh JVM runs the rest ({@link ContinuingTestRun}). JVM {@code n} writes
   * its report to {@code reportName(n)} in {@code dir}; {@link DetectionReport#readAll} reads them together.
   */
  public static Continued continuing(TestJvm jvm, TestSelection selection, IntFunction<String> agentOptionsForAttempt,
      TestLimits limits, Duration backstop, Path dir, Set<String> skip) throws IOException, InterruptedException {
    TestRunResult run = new ContinuingTestRun(jvm).run(selection, n -> Optional.of(agentOptionsForAttempt.apply(n)),
        limits, backstop, dir, skip);
    return new Continued(new DetectionRuns(1, Map.of(), run.timedOut(), run.exitCode(), run.log(), null), run);
  }

  /** A continuing detection run and what each test did in it (hung tests among them). */
  public record Continued(DetectionRuns runs, TestRunResult result) {}

  /** Runs the module's tests {@code runs} times in one detection JVM ({@code timeout} per run). */
  public static DetectionRuns repeated(TestJvm jvm, String agentOptions, int runs, Duration timeout, Path dir)
      throws IOException, InterruptedException {
    return repeated(jvm, TestSelection.ALL, agentOptions, runs, timeout, dir, TestLimits.NONE, Set.of());
  }

  /**
   * Runs the selection {@code runs} times in one detection JVM ({@code timeout} per run), each test bounded by
   * {@code limits} (a hung test ends the JVM: the caller continues the run in fresh JVMs), never the {@code skip} ids.
   */
  public static DetectionRuns repeated(TestJvm jvm, TestSelection selection, String agentOptions, int runs,
      Duration timeout, Path dir, TestLimits limits, Set<String> skip) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Path log = dir.resolve("output.log");
    TrialServerProcess server = jvm.serve(selection, agentOptions, dir.resolve("results.jsonl"), log, timeout, limits,
        skip);
    Map<String, Integer> firstRun = new LinkedHashMap<>();
    int done = 0;
    String stop = null;
    while (done < runs && stop == null) {
      TrialServerProcess.Reply reply = server.repeat(timeout);
      if (reply instanceof TrialServerProcess.Reply.TimedOut) {
        return new DetectionRuns(done, firstRun, true, -1, log,
            "run " + (done + 1) + " did not finish within " + timeout.toSeconds() + " s");
      }
      if (reply instanceof TrialServerProcess.Reply.Ended ended) {
        // a test called System.exit (or the JVM crashed): that run counts as made, and the agent's shutdown hook
        // still wrote the report, as in a single run
        return new DetectionRuns(done + 1, firstRun, false, ended.exitCode(), log, null);
      }
      JsonNode answer = ((TrialServerProcess.Reply.Answer) reply).run();
      done++;
      for (JsonNode field : answer.path("raced")) {
        firstRun.putIfAbsent(field.asText(), done);
      }
      if (answer.path("threadsLeft").size() > 0 && done < runs) {
        stop = "run " + done + " left non-daemon threads running (" + answer.path("threadsLeft") + ")";
      }
    }
    int exit = server.quit(QUIT_WAIT);
    return new DetectionRuns(done, firstRun, exit == -1, exit, log, stop);
  }

  /** Raced fields that no run before {@code run} had shown, i.e. found only by repeating. */
  public long foundAfter(int run) {
    return firstRun.values().stream().filter(r -> r > run).count();
  }
}
