package dev.racetriage.runner.distribute;

import dev.racetriage.runner.fork.TestJvm;
import dev.racetriage.runner.triage.TriagePipeline;
import dev.racetriage.runner.trial.JvmTrialExecutor;
import dev.racetriage.runner.trial.ReusedTrials;
import dev.racetriage.runner.trial.ServedTrials;
import dev.racetriage.runner.trial.TrialInputs;
import dev.racetriage.runner.trial.TrialOutcome;
import dev.racetriage.runner.trial.TrialScheduler;
import dev.racetriage.runner.trial.TrialSession;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.queue.TrialItem;
import dev.racetriage.store.queue.TrialQueue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs planned units of trials from the shared queue, one at a time per call: claims a unit planned for this build,
 * runs it exactly as a local triage runs a (race, test) unit (same sessions, stopping rule, seeds and limits), stores
 * every trial as it finishes under the claim, and finishes the unit with its outcomes. The claim's lease is renewed
 * while the unit runs; if it is lost (this process was stalled past the lease and another worker took the unit), the
 * unit stops at its next run and nothing more is stored. A unit whose race another worker decided stops too. Runs a
 * stored trial under the same inputs again never: a re-claimed unit takes the trials its killed claimer stored.
 */
public final class TrialWorker {
  private final TriageStore store;
  private final TrialQueue queue;
  private final String workerId;
  private final WorkerBuild build;
  private final Path workDir;
  private final Duration lease;

  public TrialWorker(TriageStore store, String workerId, WorkerBuild build, Path workDir, Duration lease) {
    this.store = store;
    this.queue = store.trialQueue();
    this.workerId = workerId;
    this.build = build;
    this.workDir = workDir;
    this.lease = lease;
  }

  public String id() {
    return workerId;
  }

  /**
   * Claims one unit ({@code runId}: of that run only; null: of any running triage) and runs it. Returns the unit it
   * ran, or empty when there was none to claim.
   */
  public Optional<TrialItem> runOne(Long runId) throws InterruptedException {
    Optional<TrialItem> claimed = queue.claim(workerId, build.queueFingerprint(), runId, lease);
    if (claimed.isEmpty()) {
      return claimed;
    }
    TrialItem item = claimed.get();
    UnitSpec unit;
    try {
      unit = UnitSpec.fromJson(item.spec());
    } catch (IllegalArgumentException e) {
      queue.release(item.id(), workerId, e.getMessage());
      return claimed;
    }
    TestJvm jvm = build.jvms().get(unit.module());
    if (jvm == null) {
      queue.release(item.id(), workerId, "the checkout " + build.root() + " has no test module " + unit.module()
          + " (its modules: " + String.join(", ", build.jvms().keySet()) + ")");
      return claimed;
    }
    store.workers().heartbeat(workerId, "WORKING", build.queueFingerprint(),
        unit.fieldKey() + " with " + unit.testName());
    AtomicBoolean lost = new AtomicBoolean();
    ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "racetriage-lease");
      t.setDaemon(true);
      return t;
    });
    long every = Math.max(1, lease.toMillis() / 3);
    renewer.scheduleAtFixedRate(() -> {
      try {
        if (!queue.renew(item.id(), workerId, lease)) lost.set(true);
      } catch (RuntimeException e) {
        // the store was briefly unreachable: the next renewal (or the next trial) tries again
      }
    }, every, every, TimeUnit.MILLISECONDS);
    try {
      run(item, unit, jvm, lost);
    } catch (RuntimeException e) {
      if (!lost.get()) {
        queue.release(item.id(), workerId, "the worker " + workerId + " failed running it: " + e.getMessage());
      }
    } finally {
      renewer.shutdownNow();
    }
    return claimed;
  }

  /**
   * Threads that run units ({@code runId}: of that run only; null: of any) until {@code stop} is set, each waiting
   * {@code idlePoll} when there was none. {@code busy} counts the threads inside {@link #runOne}; {@code onRan} sees
   * every unit a thread ran; a thread that fails adds its failure to {@code failures} and ends.
   */
  public List<Thread> start(int threads, Long runId, Duration idlePoll, AtomicBoolean stop,
      java.util.concurrent.atomic.AtomicInteger busy, java.util.function.Consumer<TrialItem> onRan,
      List<Throwable> failures) {
    List<Thread> started = new java.util.ArrayList<>();
    for (int i = 0; i < threads; i++) {
      Thread t = new Thread(() -> {
        try {
          while (!stop.get()) {
            busy.incrementAndGet();
            Optional<TrialItem> ran;
            try {
              ran = runOne(runId);
            } finally {
              busy.decrementAndGet();
            }
            if (ran.isPresent()) {
              onRan.accept(ran.get());
            } else {
              Thread.sleep(idlePoll.toMillis());
            }
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
          failures.add(e);
        }
      }, "racetriage-trials-" + i);
      t.setDaemon(true);
      started.add(t);
      t.start();
    }
    return started;
  }

  private void run(TrialItem item, UnitSpec unit, TestJvm jvm, AtomicBoolean lost) throws InterruptedException {
    JvmTrialExecutor executor = new JvmTrialExecutor(id -> jvm,
        TriagePipeline.trialLimits(id -> unit.baselineMillis()), workDir.resolve("item-" + item.id()),
        unit.keepWork());
    TrialSession.Factory sessions = unit.followUp() || !unit.repeatInJvm()
        ? TrialSession.perRun(executor) : new ServedTrials(executor);
    TrialInputs inputs = new TrialInputs(build.classFingerprint(), build.agentVersion());
    ReusedTrials reuse = new ReusedTrials(spec -> store.trials().resumable(inputs.key(spec))
        .map(record -> TriagePipeline.fromStore(spec, record)));
    FieldKey field = FieldKey.parse(unit.fieldKey());
    TrialScheduler scheduler = new TrialScheduler(reuse.around(sessions), unit.rule(), 1, unit.deadline())
        .withoutAgent(unit.controlWithoutAgent())
        .withSharedDecisions(new TrialScheduler.SharedDecisions() {
          @Override
          public boolean decided(String f) {
            return lost.get() || queue.raceDecided(item.runId(), f);
          }

          @Override
          public void decide(String f) {
            if (!queue.decide(item.id(), workerId)) lost.set(true);
          }
        });
    List<TrialOutcome> outcomes = scheduler.run(unit.trialCells(), o -> {
      if (lost.get()) return;
      String key = inputs.key(o.spec());
      if (reuse.reused(o)) {
        store.trials().adopt(key, item.runId());
      } else if (queue.recordTrial(item.id(), workerId, lease, TriagePipeline.toStoreTrial(field, o), item.runId(), key)
          == TrialQueue.Recorded.CLAIM_LOST) {
        lost.set(true);
      }
    });
    if (!lost.get()) {
      queue.complete(item.id(), workerId,
          UnitResult.of(scheduler.jvmsStarted(), scheduler.testRuns(), outcomes).toJson());
    }
  }
}
