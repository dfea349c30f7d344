package dev.racetriage.runner.distribute;

import dev.racetriage.runner.triage.TriageProgress;
import dev.racetriage.runner.trial.FreshJvmRetry;
import dev.racetriage.runner.trial.TrialCell;
import dev.racetriage.runner.trial.TrialOutcome;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.queue.TrialItem;
import dev.racetriage.store.queue.TrialItemState;
import dev.racetriage.store.queue.TrialQueue;
import dev.racetriage.store.runs.RunOwner;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The trials of a distributing triage ({@code triage --distribute}): every (race, test) unit is planned into the
 * shared queue for this build, the triage runs units itself on {@code jobs} threads (so it finishes with no other
 * worker), `racetriage worker` processes on other machines or checkouts take the rest, and the triage waits,
 * showing the queue and each worker's count, until every unit of its plan has ended. A race's fresh-JVM retry
 * ({@link FreshJvmRetry}) is planned as soon as all of the race's units have ended, as the local scheduler does.
 * The outcomes come back from the units' reports, so the verdicts are decided exactly as in a local triage.
 *
 * <p>Not used here: group screening (a screen's splits depend on its own outcomes, one process at a time); each race
 * is tried alone, which gives the same verdicts at the cost of the runs grouping saves.
 */
public final class DistributedTrials {
  private static final Duration POLL = Duration.ofMillis(500);
  private static final Duration PROGRESS_EVERY = Duration.ofSeconds(3);

  /** How a unit's settings come from the triage's options, for its (race, test) cells. */
  public interface Planner {
    /** The unit of {@code cells} (one race, one test); {@code followUp}: the race's fresh-JVM retry. */
    UnitSpec unit(List<TrialCell> cells, boolean followUp);
  }

  /** The outcomes of every unit, the JVMs and test runs they cost, and what the user should know. */
  public record Result(List<TrialOutcome> outcomes, int jvms, int testRuns, List<String> warnings,
                       Map<String, Long> trialsByWorker) {}

  private final TriageStore store;
  private final TrialQueue queue;
  private final long runId;
  private final WorkerBuild build;
  private final Path workDir;
  private final Duration lease;
  private final int jobs;
  private final TriageProgress progress;

  public DistributedTrials(TriageStore store, long runId, WorkerBuild build, Path workDir, Duration lease, int jobs,
      TriageProgress progress) {
    this.store = store;
    this.queue = store.trialQueue();
    this.runId = runId;
    this.build = build;
    this.workDir = workDir;
    this.lease = lease;
    this.jobs = Math.max(1, jobs);
    this.progress = progress;
  }

  public Result run(List<TrialCell> cells, Planner planner) throws InterruptedException {
    Map<String, List<TrialCell>> cellsByField = new LinkedHashMap<>();
    cells.forEach(c -> cellsByField.computeIfAbsent(c.fieldKey(), f -> new ArrayList<>()).add(c));
    Map<Long, UnitSpec> planned = new LinkedHashMap<>();
    Set<Long> followUps = new HashSet<>();
    for (List<TrialCell> unit : units(cells)) {
      UnitSpec spec = planner.unit(unit, false);
      planned.put(queue.plan(runId, build.queueFingerprint(), spec.fieldKey(), spec.testName(), spec.toJson()), spec);
    }
    progress.phase("trials", planned.size() + " unit(s) planned into the shared queue for build "
        + build.queueFingerprint().substring(0, 12) + "; this triage runs " + jobs + " at a time, workers the rest");

    String me = store.workers().register(RunOwner.localHost(), ProcessHandle.current().pid(),
        build.root().toString(), null);
    store.workers().heartbeat(me, "WORKING", build.queueFingerprint(), "triage run #" + runId);
    TrialWorker local = new TrialWorker(store, me, build, workDir, lease);
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    List<Thread> threads = local.start(jobs, runId, POLL, stop, new java.util.concurrent.atomic.AtomicInteger(),
        item -> {}, failures);
    Set<String> followedUp = new HashSet<>();
    List<TrialItem> items;
    Instant lastProgress = Instant.EPOCH;
    String lastLine = "";
    boolean finished = false;
    try {
      while (true) {
        items = queue.forRun(runId);
        if (!failures.isEmpty()) {
          throw new IllegalStateException("this triage's own trial worker failed: " + failures.get(0).getMessage(),
              failures.get(0));
        }
        // a race whose units have all ended gets its fresh-JVM retry, if repetition left it unexercised
        Map<String, List<TrialItem>> byField = items.stream().filter(i -> !followUps.contains(i.id()))
            .collect(Collectors.groupingBy(TrialItem::fieldKey, LinkedHashMap::new, Collectors.toList()));
        for (Map.Entry<String, List<TrialItem>> e : byField.entrySet()) {
          if (followedUp.contains(e.getKey()) || !e.getValue().stream().allMatch(i -> i.state().finished())) continue;
          followedUp.add(e.getKey());
          List<TrialOutcome> outcomes = outcomes(e.getValue(), planned::get);
          for (List<TrialCell> unit : units(FreshJvmRetry.cellsToRetry(cellsByField.get(e.getKey()), outcomes))) {
            UnitSpec spec = planner.unit(unit, true);
            long id = queue.plan(runId, build.queueFingerprint(), spec.fieldKey(), spec.testName(), spec.toJson());
            planned.put(id, spec);
            followUps.add(id);
            progress.phase("trials", spec.fieldKey() + " unexercised in a reused JVM: again with one run per fresh "
                + "JVM (" + spec.testName() + ")");
          }
        }
        // only this triage plans into its run: every unit it planned is in items once none was added above
        boolean allEnded = items.stream().allMatch(i -> i.state().finished())
            && followedUp.containsAll(byField.keySet()) && planned.size() == items.size();
        if (Instant.now().isAfter(lastProgress.plus(PROGRESS_EVERY)) || allEnded) {
          String line = describe(items, queue.trialsByWorker(runId), me);
          if (!line.equals(lastLine)) {
            progress.phase("trials", line);
            lastLine = line;
          }
          lastProgress = Instant.now();
        }
        if (allEnded) {
          finished = true;
          break;
        }
        Thread.sleep(POLL.toMillis());
      }
    } finally {
      stop.set(true);
      for (Thread t : threads) {
        if (!finished) t.interrupt();
        t.join();
      }
      if (!finished) {
        queue.cancel(runId, "the distributing triage ended before its plan did");
      }
      store.workers().heartbeat(me, finished ? "STOPPED" : "FAILED", null, "triage run #" + runId + " ended");
    }
    int jvms = 0;
    int runs = 0;
    List<String> warnings = new ArrayList<>();
    for (TrialItem item : items) {
      if (item.state() == TrialItemState.DONE && item.outcomes() != null) {
        UnitResult r = UnitResult.fromJson(item.outcomes());
        jvms += r.jvms();
        runs += r.runs();
      } else if (item.state() == TrialItemState.FAILED) {
        warnings.add("The trials of " + item.fieldKey() + " with " + item.testName() + " could not run on any worker ("
            + item.attempts() + " attempts): " + item.error());
      }
    }
    return new Result(outcomes(items, planned::get), jvms, runs, warnings, queue.trialsByWorker(runId));
  }

  private static List<TrialOutcome> outcomes(List<TrialItem> items, Function<Long, UnitSpec> specs) {
    List<TrialOutcome> outcomes = new ArrayList<>();
    for (TrialItem item : items) {
      if (item.state() == TrialItemState.DONE && item.outcomes() != null) {
        outcomes.addAll(UnitResult.fromJson(item.outcomes()).outcomes(specs.apply(item.id())));
      }
    }
    return outcomes;
  }

  /** "12 of 40 unit(s) ended, 3 running; trials by worker: ci-3:4242:ab12 30, this triage 12". */
  static String describe(List<TrialItem> items, Map<String, Long> trialsByWorker, String me) {
    long ended = items.stream().filter(i -> i.state().finished()).count();
    long running = items.stream().filter(i -> i.state() == TrialItemState.CLAIMED).count();
    String workers = trialsByWorker.entrySet().stream()
        .map(e -> (e.getKey().equals(me) ? "this triage" : e.getKey()) + " " + e.getValue())
        .collect(Collectors.joining(", "));
    return ended + " of " + items.size() + " unit(s) ended, " + running + " running"
        + (workers.isEmpty() ? "" : "; trials by worker: " + workers);
  }

  /** The cells of each (field, test) pair, in the order given. */
  static List<List<TrialCell>> units(List<TrialCell> cells) {
    Map<List<String>, List<TrialCell>> units = new LinkedHashMap<>();
    for (TrialCell cell : cells) {
      units.computeIfAbsent(List.of(cell.fieldKey(), cell.testId()), k -> new ArrayList<>()).add(cell);
    }
    return new ArrayList<>(units.values());
  }
}
