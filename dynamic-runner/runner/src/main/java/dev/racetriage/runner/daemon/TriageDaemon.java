package dev.racetriage.runner.daemon;

import dev.racetriage.runner.detect.DetectedRace;
import dev.racetriage.runner.report.SourceLocator;
import dev.racetriage.runner.triage.Detection;
import dev.racetriage.runner.triage.Preflight;
import dev.racetriage.runner.triage.ProjectCommit;
import dev.racetriage.runner.triage.RaceResolution;
import dev.racetriage.runner.triage.RaceFinding;
import dev.racetriage.runner.triage.TriageException;
import dev.racetriage.runner.triage.TriageOptions;
import dev.racetriage.runner.triage.TriagePipeline;
import dev.racetriage.runner.triage.TriageProgress;
import dev.racetriage.runner.trial.TrialOutcome;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.projectlock.ProjectLock;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.queue.WorkItem;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.runs.RunStatus;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * {@code racetriage daemon}: keeps a project's verdicts current. When the build inputs change it rebuilds and runs
 * detection again, then queues the fields whose races are new, unclassified, or touched by the changed files; a
 * worker takes fields from the queue one at a time and triages them, storing every trial as it ends.
 *
 * <p>The queue lives in the store: items an editor queued ("Triage this field now") are picked up too, and a daemon
 * killed mid-trial loses no finished trial — its claim's lease runs out and the next daemon takes the item again.
 */
public final class TriageDaemon {
  /** How long a claim holds without renewal; a field's trials renew it as they go. */
  static final Duration LEASE = Duration.ofMinutes(2);

  private final TriageOptions options;
  private final TriageProgress progress;
  private final PrintWriter log;
  private final Duration poll;
  private final TriagePipeline pipeline = new TriagePipeline();
  private final String claimer = "daemon-" + ManagementFactory.getRuntimeMXBean().getName();

  public TriageDaemon(TriageOptions options, TriageProgress progress, PrintWriter log, Duration poll) {
    this.options = options;
    this.progress = progress;
    this.log = log;
    this.poll = poll;
  }

  /** This daemon, planning each field's trials into the store's shared queue for workers ({@code --distribute}). */
  public TriageDaemon distributed(TriagePipeline.Distribution how) {
    pipeline.distributed(how);
    return this;
  }

  /**
   * Runs until {@code stop} says so (checked between steps), holding the project's lock all along: a triage started
   * meanwhile is told a daemon works on the project instead of building into the same {@code target/}.
   */
  public void run(BooleanSupplier stop) throws TriageException, InterruptedException {
    Path root = Preflight.projectRoot(options.project());
    try (ProjectLock lock = Preflight.lock(root, "daemon")) {
      loop(root, stop);
    }
  }

  private void loop(Path root, BooleanSupplier stop) throws TriageException, InterruptedException {
    SourceFingerprint seen = null;
    Detection detection = null;
    while (!stop.getAsBoolean()) {
      SourceFingerprint now = fingerprint(root);
      if (seen == null || !now.equals(seen)) {
        Set<String> changed = seen == null ? Set.of() : now.changedSince(seen);
        log("sources " + (seen == null ? "read" : "changed: " + String.join(", ", changed)) + "; rebuilding and detecting");
        List<String> warnings = new ArrayList<>();
        try {
          detection = pipeline.detect(options, progress, warnings);
          recordDetection(detection, changed, seen == null, warnings);
        } catch (TriageException e) {
          log("cannot triage the current sources: " + e.getMessage() + " (waiting for the next change)");
          detection = null;
        }
        warnings.forEach(this::log);
        seen = now;
        continue;
      }
      if (detection == null || !detection.canJumble() || !workOnce(detection)) {
        Thread.sleep(poll.toMillis());
      }
    }
  }

  /** Stores the races and candidates of a detection and queues the fields that need (new) trials. */
  void recordDetection(Detection d, Set<String> changedFiles, boolean firstCycle, List<String> warnings) {
    SourceLocator sources = new SourceLocator(d.root());
    try (TriageStore store = open(d)) {
      Run run = store.runs().start("daemon-detect", ProjectCommit.of(d.root()), null);
      int queued = store.inTransaction(() -> {
        TriagePipeline.storeCandidates(store, d.candidates(), warnings);
        warnings.addAll(RaceResolution.apply(store, run.id(), d).describe());
        int n = 0;
        for (DetectedRace race : d.byConfidence()) {
          FieldKey field = FieldKey.parse(race.fieldKey());
          boolean known = store.races().find(field).isPresent();
          store.races().upsert(TriagePipeline.toStoreRace(field, race), run.id());
          String reason = reason(race, known, firstCycle, changedFiles, sources, store, field);
          if (reason != null && d.canJumble()) {
            store.queue().enqueue(field, reason, priority(d, race));
            n++;
          }
        }
        store.runs().finish(run.id(), RunStatus.SUCCEEDED, d.races().size() + " race(s), " + n + " queued",
            d.fingerprint());
        return n;
      });
      log(d.races().size() + " race(s) detected, " + queued + " queued for trials"
          + (d.canJumble() ? "" : " (this agent cannot run trials: no jumble mode)"));
    }
  }

  private static String reason(DetectedRace race, boolean known, boolean firstCycle, Set<String> changed,
      SourceLocator sources, TriageStore store, FieldKey field) {
    if (!known) return "new race";
    if (store.verdicts().current(field).isEmpty()) return "not classified yet";
    if (firstCycle) return null;
    for (DetectedRace.Access access : accesses(race)) {
      Optional<String> file = sources.locate(access.className(), access.file());
      if (file.isPresent() && changed.contains(file.get())) return "changed: " + file.get();
    }
    return null;
  }

  private static List<DetectedRace.Access> accesses(DetectedRace race) {
    List<DetectedRace.Access> all = new ArrayList<>(List.of(race.current(), race.previous()));
    race.sitePairs().forEach(p -> {
      all.add(p.current());
      all.add(p.previous());
    });
    return all;
  }

  private static int priority(Detection d, DetectedRace race) {
    return d.candidates().stream().filter(c -> c.field().equals(race.fieldKey()))
        .mapToInt(c -> (int) Math.round(c.confidence() * 100)).findFirst().orElse(0);
  }

  /** Triages the next queued field, if any; false when the queue is empty. */
  boolean workOnce(Detection d) throws InterruptedException {
    WorkItem item;
    try (TriageStore store = open(d)) {
      Optional<WorkItem> next = store.queue().claimNext(claimer, LEASE);
      if (next.isEmpty()) return false;
      item = next.get();
    }
    DetectedRace race = d.races().get(item.field().toString());
    try (TriageStore store = open(d)) {
      if (race == null) {
        store.queue().complete(item.id(), claimer); // the field no longer races (or was queued by hand before any race)
        log(item.field() + ": no race in the current tests; nothing to triage");
        return true;
      }
      log("triaging " + item.field() + " (" + item.reason() + ")");
      Run run = store.runs().start("daemon-trials", null, null);
      List<TrialOutcome> trials = Collections.synchronizedList(new ArrayList<>());
      if (pipeline.distributes()) {
        // planned into the shared queue: workers (and this daemon) run the units and store the trials
        trials.addAll(pipeline.distributedTrials(store, run.id(), d, List.of(race), options, progress));
      } else {
        pipeline.trials(d, List.of(race), options, progress, outcome -> {
          // every finished trial is stored at once: a killed daemon loses none
          store.trials().add(TriagePipeline.toStoreTrial(item.field(), outcome), run.id());
          store.queue().renew(item.id(), claimer, LEASE);
          trials.add(outcome);
        });
      }
      RaceFinding finding = store.inTransaction(() -> {
        RaceFinding f = pipeline.decide(store, run.id(), d, race, List.copyOf(trials));
        store.queue().complete(item.id(), claimer);
        store.runs().finish(run.id(), RunStatus.SUCCEEDED, item.field() + ": " + f.verdict().label(), d.fingerprint());
        return f;
      });
      log(item.field() + ": " + finding.verdict().label() + " — " + finding.reason());
    }
    return true;
  }

  private TriageStore open(Detection d) {
    return TriagePipeline.open(options, d.root());
  }

  private static SourceFingerprint fingerprint(Path root) throws TriageException {
    try {
      return SourceFingerprint.of(root);
    } catch (IOException e) {
      throw new TriageException("Cannot read the sources of " + root + ": " + e.getMessage(), e);
    }
  }

  private void log(String message) {
    log.println("racetriage daemon: " + message);
    log.flush();
  }
}
