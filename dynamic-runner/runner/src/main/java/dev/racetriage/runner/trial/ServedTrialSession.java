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
 *   <li><b>a hang</b>: no answer within the test's timeout. The JVM and its children are killed, the run is a
 *       {@code TIMEOUT} (evidence like any hang), and the next run starts a new server;</li>
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
  private int runsInServer;
  private long firstReads;
  private long firstWrites;
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
    return served(spec, false);
  }

  /** One run in the server; {@code again}: it repeats a run in which the field saw no write or no read. */
  private TrialOutcome served(TrialSpec spec, boolean again) throws InterruptedException {
    Path dir = executor.newTrialDir();
    if (server == null && !start(spec, dir)) {
      return run(spec);
    }
    TrialServerProcess.Reply reply = server.run(spec.heuristic(), spec.seed(), executor.timeout(testId));
    String replay = executor.replay(spec, dir);
    if (reply instanceof TrialServerProcess.Reply.TimedOut) {
      server = null; // killed with its children; the next run starts a new server
      return new TrialOutcome(spec, TrialOutcome.Result.TIMEOUT, executor.timeout(testId).toMillis(), 0, 0,
          "the test did not finish within " + executor.timeout(testId).toSeconds() + " s (a hang)", replay);
    }
    if (reply instanceof TrialServerProcess.Reply.Ended ended) {
      Path log = server.log();
      server = null;
      fallBack("the test JVM ended during a run (exit code " + ended.exitCode() + ")");
      return new TrialOutcome(spec, TrialOutcome.Result.FAIL, 0, 0, 0, "the test JVM ended during the test (exit "
          + "code " + ended.exitCode() + ": System.exit or a crash); see " + log, replay);
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
    runsInServer++;
    boolean warmUp = runsInServer == 1;
    if (warmUp) {
      firstReads = reads;
      firstWrites = writes;
    } else if (missesTheField(writes, reads)) {
      // this run tested nothing: not counted; once more here, then where the test starts from scratch
      return again ? confirmInFreshJvm(spec, writes, reads) : served(spec, true);
    }
    if (run.path("threadsLeft").size() > 0) {
      fallBack("the test leaves non-daemon threads running (" + run.path("threadsLeft") + ")");
    }
    String status = run.path("status").asText();
    TrialOutcome.Result result = "passed".equals(status) ? TrialOutcome.Result.PASS : TrialOutcome.Result.FAIL;
    String failure = null;
    if (result == TrialOutcome.Result.FAIL) {
      JsonNode f = run.path("failure");
      failure = f.isObject() ? f.path("stack").asText()
          : "none".equals(status) ? "the test did not run (it was not found or was skipped)" : status;
    }
    return new TrialOutcome(spec, result, run.path("millis").asLong(), reads, stale, failure, replay, warmUp);
  }

  /** No write (or no read) of the field, while the JVM's first run had some. */
  private boolean missesTheField(long writes, long reads) {
    return (firstWrites > 0 && writes == 0) || (firstReads > 0 && reads == 0);
  }

  /**
   * Two runs in a row in this JVM saw no write (or no read) of the field: the run is made in a fresh JVM, and that run
   * counts. If the fresh JVM sees the field, reusing the JVM is what hid it (leaked state, or warm code that changes the
   * schedule for good): the pair falls back to a JVM per run. If not, it is the schedule: the server stays.
   */
  private TrialOutcome confirmInFreshJvm(TrialSpec spec, long writes, long reads) throws InterruptedException {
    jvms++;
    JvmTrialExecutor.Counted fresh = executor.runCounted(spec);
    if (!missesTheField(fresh.writes(), fresh.outcome().reads())) {
      fallBack("repeating the test in one JVM hides the field (state leaks between runs, or warm code changes the "
          + "schedule for good): the first run in the JVM made " + firstWrites + " write(s) and "
          + firstReads + " read(s) of the field, two later ones in a row " + writes + " and " + reads
          + ", a run in a fresh JVM " + fresh.writes() + " and " + fresh.outcome().reads());
    } else {
      scheduleMisses++;
    }
    return fresh.outcome();
  }

  /** Runs confirmed in a fresh JVM whose missing writes or reads were the schedule's doing, not a leak. */
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
    }
  }
}
