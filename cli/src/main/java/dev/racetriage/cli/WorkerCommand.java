package dev.racetriage.cli;

import dev.racetriage.store.engine.StoreLocation;
import dev.racetriage.runner.distribute.TrialWorker;
import dev.racetriage.runner.distribute.WorkerBuild;
import dev.racetriage.runner.triage.Preflight;
import dev.racetriage.runner.triage.ProjectCommit;
import dev.racetriage.runner.triage.TriageException;
import dev.racetriage.runner.triage.TriagePipeline;
import dev.racetriage.store.StoreException;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.runs.RunOwner;
import dev.racetriage.store.workers.WorkerRepository;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code racetriage worker DIR --db DB}: runs trials that distributing triages ({@code triage --distribute}) planned
 * into the shared store, on this machine, from this checkout. It builds the checkout, registers itself (host, PID,
 * commit) and then claims units planned for exactly its build (the class files' fingerprint and the agent), runs
 * them and stores every trial as it finishes, until stopped — or, with {@code --exit-when-idle}, until it found no
 * work for that long. When the checkout moves to another commit while it is idle, it builds again.
 */
@Command(
    name = "worker",
    mixinStandardHelpOptions = true,
    description = {
      "Run trials planned by 'racetriage triage --distribute' into a shared triage database.",
      "Builds DIR (a checkout of the project), then takes the units of trials planned for exactly this build",
      "(same class files, same racetriage agent), runs them and stores every trial as it finishes. A unit of a",
      "worker that is killed is run again by another worker once its lease runs out; nothing is lost or counted",
      "twice. Stop it with Ctrl-C."
    })
final class WorkerCommand implements Callable<Integer> {
  private static final Duration IDLE_POLL = Duration.ofSeconds(1);
  private static final Duration COMMIT_CHECK = Duration.ofSeconds(30);

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "A checkout of the project (default: .)")
  Path project = Path.of(".");

  @Option(names = "--db", paramLabel = StoreLocationOption.LABEL, required = true,
      converter = StoreLocationOption.class, description = "The shared triage store the distributing triage uses: "
      + "jdbc:postgresql://host:port/database?user=NAME (password from $RACETRIAGE_DB_PASSWORD or ~/.pgpass), or an "
      + "SQLite file every worker can reach")
  StoreLocation db;

  @Option(names = "--jobs", paramLabel = "N", description = "Units run in parallel (default: number of cores)")
  Integer jobs;

  @Option(names = "--lease", paramLabel = "DURATION", description = "How long a claimed unit is held between renewals;"
      + " a killed worker's units are taken again after it (default: 60s)")
  String lease;

  @Option(names = "--exit-when-idle", paramLabel = "DURATION",
      description = "Exit once there was no unit to run for this long (default: run until stopped)")
  String exitWhenIdle;

  @Option(names = "--build-timeout", paramLabel = "DURATION", description = "Limit of the project's build (default: 10m)")
  String buildTimeout;

  @Override
  public Integer call() throws InterruptedException {
    Duration leaseTime;
    Duration idleExit;
    Duration buildLimit;
    int threads;
    try {
      leaseTime = new TriagePipeline.Distribution(
          lease == null ? TriagePipeline.Distribution.DEFAULT_LEASE : DurationOption.parse("--lease", lease)).lease();
      idleExit = exitWhenIdle == null ? null : DurationOption.parse("--exit-when-idle", exitWhenIdle);
      buildLimit = buildTimeout == null ? Duration.ofMinutes(10) : DurationOption.parse("--build-timeout", buildTimeout);
      threads = jobs == null ? Runtime.getRuntime().availableProcessors() : jobs;
      if (threads < 1) throw new IllegalArgumentException("--jobs must be at least 1, not " + threads);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage(), 2);
    }
    Path root;
    try {
      root = Preflight.projectRoot(project);
    } catch (TriageException e) {
      throw new UserError(e.getMessage(), 2, e);
    }
    PrintWriter err = spec.commandLine().getErr();
    try (TriageStore store = StoreOpening.open(db, root)) {
      return work(store, root, leaseTime, idleExit, buildLimit, threads, err);
    } catch (StoreException e) {
      throw StoreOpening.failed(e);
    }
  }

  private int work(TriageStore store, Path root, Duration leaseTime, Duration idleExit, Duration buildLimit,
      int threads, PrintWriter err) throws InterruptedException {
    WorkerRepository workers = store.workers();
    String commit = ProjectCommit.of(root);
    String id = workers.register(RunOwner.localHost(), ProcessHandle.current().pid(), root.toString(), commit);
    AtomicReference<String> state = new AtomicReference<>("BUILDING");
    AtomicReference<String> fingerprint = new AtomicReference<>();
    AtomicInteger busy = new AtomicInteger();
    Thread beat = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        try {
          Thread.sleep(WorkerRepository.HEARTBEAT.toMillis());
          workers.heartbeat(id, busy.get() > 0 ? "WORKING" : state.get(), fingerprint.get(), null);
        } catch (InterruptedException e) {
          return;
        } catch (RuntimeException e) {
          // the store was briefly unreachable: the next beat tries again
        }
      }
    }, "racetriage-worker-heartbeat");
    beat.setDaemon(true);
    beat.start();
    Thread hook = new Thread(() -> {
      try {
        workers.heartbeat(id, "STOPPED", null, "stopped");
      } catch (RuntimeException e) {
        // best effort: a worker that cannot report is shown as gone after its heartbeats stop
      }
    });
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      while (true) {
        WorkerBuild build;
        try {
          err.println("racetriage worker " + id + ": building " + root + (commit == null ? "" : " at " + commit));
          err.flush();
          build = WorkerBuild.build(root, buildLimit);
        } catch (TriageException e) {
          workers.heartbeat(id, "FAILED", null, StoreOpening.oneLine(e.getMessage()));
          throw new UserError(e.getMessage(), 2, e);
        }
        fingerprint.set(build.queueFingerprint());
        state.set("IDLE");
        workers.heartbeat(id, "IDLE", build.queueFingerprint(), null);
        err.println("racetriage worker " + id + ": ready (build " + build.queueFingerprint().substring(0, 12)
            + ", " + threads + " at a time); waiting for planned trials");
        err.flush();
        String next = serve(store, id, build, root, leaseTime, idleExit, threads, busy, err);
        if (next == null) {
          workers.heartbeat(id, "STOPPED", null, "idle for " + idleExit.toSeconds() + " s");
          err.println("racetriage worker " + id + ": no planned trials for " + idleExit.toSeconds() + " s; exiting");
          err.flush();
          return 0;
        }
        commit = next;
        state.set("BUILDING");
        workers.heartbeat(id, "BUILDING", null, "the checkout moved to " + commit);
      }
    } finally {
      beat.interrupt();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
        workers.heartbeat(id, "STOPPED", null, "stopped");
      } catch (IllegalStateException | StoreException e) {
        // shutting down already (the hook reports), or the store is gone
      }
    }
  }

  /**
   * Runs units on {@code threads} threads until idle for {@code idleExit} (returns null) or until the checkout's
   * commit changes while every thread is idle (returns the new commit: build again).
   */
  private static String serve(TriageStore store, String id, WorkerBuild build, Path root, Duration leaseTime,
      Duration idleExit, int threads, AtomicInteger busy, PrintWriter err) throws InterruptedException {
    TrialWorker worker = new TrialWorker(store, id, build,
        root.resolve(TriageStore.DIRECTORY).resolve("workers").resolve(id.replaceAll("[^A-Za-z0-9._-]", "_")),
        leaseTime);
    AtomicReference<Instant> lastWork = new AtomicReference<>(Instant.now());
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    List<Thread> pool = worker.start(threads, null, IDLE_POLL, stop, busy, ran -> {
      lastWork.set(Instant.now());
      synchronized (err) {
        err.println("racetriage worker: ran " + ran.fieldKey() + " with " + ran.testName() + " (unit #" + ran.id()
            + " of run #" + ran.runId() + ")");
        err.flush();
      }
    }, failures);
    Instant lastCommitCheck = Instant.now();
    String commit = ProjectCommit.of(root);
    try {
      while (true) {
        Thread.sleep(IDLE_POLL.toMillis());
        if (!failures.isEmpty()) {
          throw new UserError("the worker failed: " + StoreOpening.oneLine(failures.get(0).getMessage()), 2,
              failures.get(0));
        }
        boolean idle = busy.get() == 0;
        Instant since = lastWork.get();
        if (idle && idleExit != null && Instant.now().isAfter(since.plus(idleExit))) {
          return null;
        }
        if (idle && Instant.now().isAfter(lastCommitCheck.plus(COMMIT_CHECK))) {
          lastCommitCheck = Instant.now();
          String now = ProjectCommit.of(root);
          if (now != null && !now.equals(commit)) {
            return now;
          }
        }
      }
    } finally {
      stop.set(true);
      for (Thread t : pool) {
        t.join();
      }
    }
  }
}
