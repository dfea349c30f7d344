package dev.racetriage.runner.trial;

import com.fasterxml.jackson.databind.JsonNode;
import dev.racetriage.runner.fork.TestSelection;
import dev.racetriage.runner.fork.TrialServerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The trials of one (field, test) pair, repeated inside one JVM (the launcher's trial server) with fresh agent state
 * per run, and falling back to a JVM per run ({@link JvmTrialExecutor}) whenever repeating is not faithful:
 *
 * <ul>
 *   <li><b>state leaks between runs</b>: a static singleton initialised by run 1 means later runs never write (or never
 *       read) the field, so they never race. A run in a reused JVM in which the field saw no write (or no read) while
 *       the JVM's first run saw some is therefore suspect — but the schedule alone can do the same: Peterson's
 *       {@code turn} is read only while the other thread holds its flag (not when the two threads happen not to
 *       overlap), RELAXER's {@code y} only once the reader saw {@code done}. A leak persists, a schedule does not: a
 *       suspect run is not counted and is run again in the same JVM; if that run sees the field, the pair goes on in
 *       the JVM. If it is suspect too, the run is made in a fresh JVM, and that run counts: when the fresh JVM sees the
 *       field, reusing the JVM is what hid it, and every later run of the pair gets a JVM of its own; when the fresh
 *       JVM does not see it either, missing the field is what the test does under this heuristic and schedule, and
 *       the pair stays in the reused JVM;</li>
 *   <li><b>a test whose outcome depends on an earlier run</b>: a failure in a reused JVM that no stale value explains
 *       (under {@code sc}, or with none served) while the JVM's first run passed would make the race flaky. It gets
 *       the same treatment: once more in the JVM (passing there, the failure stands as it was — an intermittent
 *       failure is evidence); failing again, a fresh JVM decides, and a pass there means the JVM's earlier runs
 *       caused it (fall back; the fresh run counts);</li>
 *   <li><b>a hang</b>: no answer within the run's limit ({@link TrialLimits}: the test's static limit, then one
 *       learned from the pair's {@code sc} runs). The JVM and its children are killed, the run is a {@code TIMEOUT}
 *       (never a failure: noise under {@code sc}, QoS evidence under an adversarial heuristic), and the next run
 *       starts a new server;</li>
 *   <li><b>the JVM ended mid-run</b> ({@code System.exit}, a crash), or <b>a run left non-daemon threads alive</b>:
 *       the run counts as it went (a failure when the JVM ended), and later runs use a JVM each;</li>
 *   <li>the server cannot start at all (an old launcher jar): a JVM per run.</li>
 * </ul>
 *
 * The first run in each server JVM is flagged as warm-up: its code is cold, so its duration stays out of timing
 * comparisons. A trial's replay command reruns it in a JVM of its own.
 */
final class ServedTrialSession implements TrialSession {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final JvmTrialExecutor executor;
  private final String field;
  private final String testId;
  private TrialServerProcess server;
  /** The directory of the running server's files, and whether a run in it failed (then its log is kept). */
  private Path serverDir;
  private boolean serverFailed;
  private int runsInServer;
  private long firstReads;
  private long firstWrites;
  private boolean firstPassed;
  private boolean perRun;
  private String fallbackReason;
  private int jvms;
  private int scheduleMisses;

  ServedTrialSession(JvmTrialExecutor executor, String field, String testId) {
    this.executor = executor;
    this.field = field;
    this.testId = testId;
  }

  @Override
  public String fallbackReason() {
    return fallbackReason;
  }

  @Override
  public int jvmsStarted() {
    return jvms;
  }

  @Override
  public TrialOutcome run(TrialSpec spec) throws InterruptedException {
    if (perRun) {
      jvms++;
      return executor.run(spec);
    }
    Served first = served(spec);
    if (first == null) {
      return run(spec); // the server did not start: a JVM per run from now on
    }
    if (first.suspicion() == Suspicion.NONE) {
      return first.outcome();
    }
    // A suspect run in the reused JVM: once more here. A leak persists; the schedule (or a rare failure) does not.
    Served again = served(spec);
    if (again == null) {
      return run(spec);
    }
    if (again.suspicion() == Suspicion.NONE) {
      // not persistent: a run that missed the field tested nothing and its repeat counts; a failure stands as it was
      return first.suspicion() == Suspicion.MISSES_FIELD ? again.outcome() : first.outcome();
    }
    return confirmInFreshJvm(spec, again);
  }

  /** Why a run in a reused JVM is suspect of not being what the same run in a fresh JVM would have been. */
  private enum Suspicion {
    NONE,
    /** The field had no write (or no read) while the JVM's first run had some. */
    MISSES_FIELD,
    /** The test failed although no stale value explains it (under {@code sc}, or none served), and the first run passed. */
    UNEXPLAINED_FAILURE
  }

  /** One run in the server, with the field's writes and what makes it suspect. */
  private record Served(TrialOutcome outcome, long writes, Suspicion suspicion) {}

  /** One run in the server (started if needed); null when the server cannot start. */
  private Served served(TrialSpec spec) throws InterruptedException {
    Path dir = executor.newTrialDir();
    if (server == null && !start(spec, dir)) {
      return null;
    }
    TrialLimits.Limit limit = executor.limits().limit(field, testId, false);
    TrialServerProcess.Reply reply = server.run(spec.heuristic(), spec.seed(), limit.duration());
    String replay = executor.replay(spec, dir);
    if (reply instanceof TrialServerProcess.Reply.TimedOut) {
      server = null; // killed with its children; the next run starts a new server (this one's log is kept)
      serverDir = null;
      TrialOutcome timeout = JvmTrialExecutor.timedOut(spec, limit, replay, false);
      executor.limits().record(timeout); // an sc timeout raises the pair's next limits
      return new Served(timeout, 0, Suspicion.NONE);
    }
    if (reply instanceof TrialServerProcess.Reply.Ended ended) {
      Path log = server.log();
      server = null;
      serverDir = null;
      fallBack("the test JVM ended during a run (exit code " + ended.exitCode() + ")");
      return new Served(new TrialOutcome(spec, TrialOutcome.Result.FAIL, 0, 0, 0, "the test JVM ended during the test "
          + "(exit code " + ended.exitCode() + ": System.exit or a crash); see " + log, replay), 0, Suspicion.NONE);
    }
    JsonNode run = ((TrialServerProcess.Reply.Answer) reply).run();
    long reads = 0;
    long stale = 0;
    long writes = 0;
    for (JsonNode f : run.path("fields")) {
      if (field.equals(f.path("field").asText())) {
        reads += f.path("reads").asLong();
        stale += f.path("staleReads").asLong();
        writes += f.path("writes").asLong();
      }
    }
    String status = run.path("status").asText();
    TrialOutcome.Result result = "passed".equals(status) ? TrialOutcome.Result.PASS : TrialOutcome.Result.FAIL;
    String failure = null;
    if (result == TrialOutcome.Result.FAIL) {
      JsonNode f = run.path("failure");
      failure = f.isObject() ? f.path("stack").asText()
          : "none".equals(status) ? "the test did not run (it was not found or was skipped)" : status;
    }
    runsInServer++;
    boolean warmUp = runsInServer == 1;
    TrialOutcome outcome = new TrialOutcome(spec, result, run.path("millis").asLong(), reads, stale, failure, replay,
        warmUp).withSameChoices(SharedRuns.sameChoices(spec.heuristic(), field, run.path("fields")));
    executor.limits().record(outcome);
    serverFailed |= result != TrialOutcome.Result.PASS;
    Suspicion suspicion = Suspicion.NONE;
    if (warmUp) {
      firstReads = reads;
      firstWrites = writes;
      firstPassed = result == TrialOutcome.Result.PASS;
    } else if (missesTheField(writes, reads)) {
      suspicion = Suspicion.MISSES_FIELD;
    } else if (unexplainedFailure(outcome)) {
      suspicion = Suspicion.UNEXPLAINED_FAILURE;
    }
    if (suspicion == Suspicion.NONE && run.path("threadsLeft").size() > 0) {
      fallBack("the test leaves non-daemon threads running (" + run.path("threadsLeft") + ")");
    }
    return new Served(outcome, writes, suspicion);
  }

  /** No write (or no read) of the field, while the JVM's first run had some. */
  private boolean missesTheField(long writes, long reads) {
    return (firstWrites > 0 && writes == 0) || (firstReads > 0 && reads == 0);
  }

  /**
   * A failure no stale value explains — under {@code sc}, or with none served — while the JVM's first run passed: it
   * would make the race flaky, so it must not come from an earlier run in the same JVM. A failure with stale values
   * served is the trial's evidence and is not second-guessed (checking each would cost a JVM per failure).
   */
  private boolean unexplainedFailure(TrialOutcome outcome) {
    return firstPassed && outcome.failed() && ("sc".equals(outcome.spec().heuristic()) || outcome.staleReads() == 0);
  }

  /**
   * Two runs in a row in this JVM were suspect: the run is made in a fresh JVM, and that run counts. If the fresh JVM
   * behaves like the JVM's first run (it sees the field; the test passes), reusing the JVM is what changed the test —
   * leaked state, or warm code that changes the schedule for good — and the pair falls back to a JVM per run. If not,
   * it is what the test does under this heuristic and schedule: the server stays.
   */
  private TrialOutcome confirmInFreshJvm(TrialSpec spec, Served suspect) throws InterruptedException {
    jvms++;
    JvmTrialExecutor.Counted fresh = executor.runCounted(spec);
    TrialOutcome o = suspect.outcome();
    if (suspect.suspicion() == Suspicion.MISSES_FIELD && !missesTheField(fresh.writes(), fresh.outcome().reads())) {
      fallBack("repeating the test in one JVM hides the field (state leaks between runs, or warm code changes the "
          + "schedule for good): the first run in the JVM made " + firstWrites + " write(s) and "
          + firstReads + " read(s) of the field, two later ones in a row " + suspect.writes() + " and " + o.reads()
          + ", a run in a fresh JVM " + fresh.writes() + " and " + fresh.outcome().reads());
    } else if (suspect.suspicion() == Suspicion.UNEXPLAINED_FAILURE && !fresh.outcome().failed()) {
      // a test that fails on its own now and then does this too (a quarter of its runs: 1 pair in 20), so the
      // message says both; either way the pair's runs from now on have a JVM each, which holds for both
      fallBack("state may leak between runs of the test, or it fails on its own now and then: it failed twice in a"
          + " row under " + spec.heuristic() + " with " + o.staleReads() + " stale value(s) served after an earlier"
          + " run in the same JVM, and passed in a fresh JVM (" + firstLine(o.failure()) + ")");
    } else {
      scheduleMisses++;
    }
    return fresh.outcome();
  }

  private static String firstLine(String text) {
    if (text == null) return "no failure text";
    int end = text.indexOf('\n');
    return end < 0 ? text : text.substring(0, end);
  }

  /** Suspect runs that a fresh JVM confirmed as the test's own behaviour (the schedule's doing, not a leak). */
  int scheduleMisses() {
    return scheduleMisses;
  }

  private boolean start(TrialSpec spec, Path dir) throws InterruptedException {
    try {
      Files.createDirectories(dir);
      jvms++;
      server = executor.jvm(testId).serve(TestSelection.of(testId), spec.agentOptions(dir.resolve("jumble.jsonl").toString()),
          dir.resolve("results.jsonl"), dir.resolve("output.log"), START_TIMEOUT);
      runsInServer = 0;
      serverDir = dir;
      serverFailed = false;
      return true;
    } catch (IOException e) {
      fallBack("the trial server did not start: " + e.getMessage());
      return false;
    }
  }

  private void fallBack(String reason) {
    perRun = true;
    fallbackReason = reason;
    close();
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
      server = null;
      if (!serverFailed) executor.discard(serverDir);
      serverDir = null;
    }
  }
}
