package dev.racetriage.runner.triage;

import dev.racetriage.prefilter.Candidate;
import dev.racetriage.runner.detect.DetectedRace;
import dev.racetriage.runner.detect.DetectionReport;
import dev.racetriage.runner.detect.DetectionRuns;
import dev.racetriage.runner.fork.AgentJar;
import dev.racetriage.runner.process.ExternalCommand;
import dev.racetriage.runner.fork.JUnitPlatformJars;
import dev.racetriage.runner.fork.TestJvm;
import dev.racetriage.runner.fork.TestLimits;
import dev.racetriage.runner.fork.ContinuingTestRun;
import dev.racetriage.runner.fork.TestOutcome;
import dev.racetriage.runner.fork.TestRunResult;
import dev.racetriage.runner.fork.TestSelection;
import dev.racetriage.runner.project.MavenProject;
import dev.racetriage.runner.project.ProjectBuildException;
import dev.racetriage.runner.project.ProjectBuilder;
import dev.racetriage.runner.project.TestModule;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.StoreException;
import dev.racetriage.store.projectlock.ProjectLock;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.marks.TrustedBenignMark;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.AccessType;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.runner.distribute.DistributedTrials;
import dev.racetriage.runner.distribute.UnitSpec;
import dev.racetriage.runner.distribute.WorkerBuild;
import dev.racetriage.runner.trial.ContainerRaces;
import dev.racetriage.runner.trial.FreshJvmRetry;
import dev.racetriage.runner.trial.GroupScreen;
import dev.racetriage.runner.trial.JvmTrialExecutor;
import dev.racetriage.runner.trial.ServedTrials;
import dev.racetriage.runner.trial.TrialSession;
import dev.racetriage.runner.trial.StoppingRule;
import dev.racetriage.runner.trial.JumbledIndices;
import dev.racetriage.runner.trial.ReusedTrials;
import dev.racetriage.runner.trial.TrialInputs;
import dev.racetriage.runner.trial.TrialLimits;
import dev.racetriage.runner.trial.TrialSpec;
import dev.racetriage.runner.trial.TrialCell;
import dev.racetriage.runner.trial.TrialEvidence;
import dev.racetriage.runner.trial.TrialOutcome;
import dev.racetriage.runner.trial.TrialScheduler;
import dev.racetriage.runner.verdict.Classification;
import dev.racetriage.runner.verdict.HeuristicTrials;
import dev.racetriage.runner.verdict.VerdictClassifier;
import dev.racetriage.store.candidates.StaticCandidate;
import dev.racetriage.store.trials.FailureText;
import dev.racetriage.store.trials.Trial;
import dev.racetriage.store.trials.TrialRecord;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import dev.racetriage.store.verdicts.VerdictRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The verdict pipeline of ARCHITECTURE.md: build the project, run each module's tests once without the agent
 * (baseline), once under the agent in detect mode (the races that really happen and the tests that touched them),
 * then store the races and report them with their verdicts.
 */
public final class TriagePipeline {
  private static final Duration MIN_DETECT_TIMEOUT = Duration.ofMinutes(2);
  private static final Duration MIN_TRIAL_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration JVM_STARTUP_ALLOWANCE = Duration.ofSeconds(20);
  private static final int LOG_TAIL = 30;

  /**
   * The whole triage, stage by stage, each stage's output stored as soon as it exists: the run is recorded (RUNNING)
   * before the build, the races as soon as detection has them, every trial as it finishes (a re-run after a kill
   * reuses them), and the verdicts of all races with the run's end in one transaction — a kill leaves either the old
   * or the new verdicts. Everything that can make the run fail for want of a writable store or a free project is
   * checked before the build.
   */
  public TriageResult run(TriageOptions options, TriageProgress progress) throws TriageException, InterruptedException {
    long start = System.nanoTime();
    Path root = Preflight.projectRoot(options.project());
    Preflight.selection(options); // a malformed --tests fails here, before the lock, the store and the build
    dev.racetriage.runner.fork.ClassCacheJanitor.pruneInBackground(
        dev.racetriage.runner.fork.ClassCacheJanitor.defaultRoot());
    List<String> warnings = new ArrayList<>();
    try (ProjectLock lock = Preflight.lock(root, "triage");
         TriageStore store = Preflight.openWritable(options, root)) {
      warnings.addAll(store.mirrorSync().describe(store.projectDir().resolve(TriageStore.DIRECTORY)
          .resolve(dev.racetriage.store.marks.MarkMirrorFile.FILE_NAME)));
      for (Run abandoned : store.abandonedAtOpen()) {
        warnings.add("An earlier " + abandoned.kind() + " run (#" + abandoned.id() + ", started " + abandoned.startedAt()
            + ") did not finish: " + abandoned.message() + ". Its finished trials are reused where they still apply.");
      }
      Run run = store.runs().start(options.detectOnly() ? "detect" : "triage", ProjectCommit.of(root), null);
      try (RunHeartbeat beat = new RunHeartbeat(store, run.id())) {
        return runStages(store, run, options, progress, warnings, start);
      } catch (TriageException | RuntimeException e) {
        endQuietly(store, run, RunStatus.FAILED, e.getMessage());
        throw e;
      } catch (InterruptedException e) {
        endQuietly(store, run, RunStatus.CANCELLED, "interrupted");
        throw e;
      }
    } catch (StoreException e) {
      throw new TriageException(e.getMessage(), e);
    }
  }

  private TriageResult runStages(TriageStore store, Run run, TriageOptions options, TriageProgress progress,
      List<String> warnings, long start) throws TriageException, InterruptedException {
    Detection d = detect(options, progress, warnings);
    recordDetection(store, run.id(), d, warnings);

    // Trials: each race's tests, one field jumbled, under each heuristic; each stored as it finishes.
    List<TrialOutcome> trials = List.of();
    long trialStart = System.nanoTime();
    boolean classified = true;
    int reusedTrials = 0;
    if (!options.detectOnly()) {
      if (!d.canJumble()) {
        classified = false;
        warnings.add(NO_JUMBLE);
      } else {
        List<DetectedRace> chosen = d.byConfidence().stream()
            .filter(r -> options.fields().isEmpty() || options.fields().contains(r.fieldKey())).toList();
        for (String field : options.fields()) {
          if (!d.races().containsKey(field)) {
            warnings.add("--field " + field + ": no race on this field was detected, so it had no trials (detected: "
                + String.join(", ", d.races().keySet()) + ").");
          }
        }
        TrialInputs inputs = new TrialInputs(d.fingerprint(), d.agentVersion());
        ReusedTrials reuse = new ReusedTrials(spec -> store.trials().resumable(inputs.key(spec))
            .map(record -> fromStore(spec, record)));
        trials = distribution != null ? distributedTrials(store, run.id(), d, chosen, options, progress)
            : trials(d, chosen, options, progress, reuse, o -> {
          FieldKey field = FieldKey.parse(o.spec().fieldKey());
          if (reuse.reused(o)) {
            store.trials().adopt(inputs.key(o.spec()), run.id());
          } else {
            store.trials().add(toStoreTrial(field, o), run.id(), inputs.key(o.spec()));
          }
        });
        reusedTrials = reuse.reusedCount();
        if (reusedTrials > 0) {
          warnings.add("Reused " + reusedTrials + " trial(s) that an interrupted triage of the same class files had "
              + "finished; " + (trials.size() - reusedTrials) + " trial(s) ran now.");
        }
        warnings.addAll(notes);
      }
    }
    long trialMillis = trials.isEmpty() ? 0 : millisSince(trialStart);

    progress.phase("store", d.races().size() + " race(s)");
    Map<String, List<TrialOutcome>> byField = new LinkedHashMap<>();
    trials.forEach(t -> byField.computeIfAbsent(t.spec().fieldKey(), f -> new ArrayList<>()).add(t));
    int trialCount = trials.size();
    List<RaceFinding> findings = store.inTransaction(() -> {
      List<RaceFinding> decided = new ArrayList<>();
      for (DetectedRace race : d.races().values()) {
        decided.add(decide(store, run.id(), d, race, byField.getOrDefault(race.fieldKey(), List.of())));
        FaultInjection.pauseInStorePhase();
      }
      store.runs().finish(run.id(), RunStatus.SUCCEEDED,
          d.races().size() + " race(s) detected, " + trialCount + " trial(s)" + untrackedNote(d), d.fingerprint());
      return decided;
    });
    findings = new ArrayList<>(findings);
    findings.sort(Comparator.comparing(RaceFinding::verdict).thenComparing(f -> f.race().fieldKey()));
    // test runs, not outcomes: a group run is one run for all its fields, a split group's runs cost all the same
    TriageStats stats = new TriageStats(d.buildMillis(), d.baselineMillis(), d.detectMillis(),
        lastTestRuns, trials.isEmpty() ? 0 : lastTrialJvms, trialMillis,
        millisSince(start), d.tests(), d.skipped(), d.detectRuns(), d.lateRaces(), d.untrackedArrays(),
        d.predictionStoppedAfterEvents());
    return new TriageResult(findings, d.candidates(), warnings, stats, classified, d.hungTests());
  }

  /** The run's message names the arrays left unchecked, so the dashboard's runs list shows the gap too. */
  private static String untrackedNote(Detection d) {
    String stopped = d.predictionStoppedAfterEvents() == 0 ? ""
        : "; prediction stopped after " + d.predictionStoppedAfterEvents() + " events";
    if (d.untrackedArrays().isEmpty()) {
      return stopped;
    }
    return "; " + d.untrackedArrays().size() + " array(s) not checked (too long): "
        + DetectionReport.UntrackedArray.describeAll(d.untrackedArrays()) + stopped;
  }

  /**
   * The candidates and races of a detection, stored together as soon as detection ends, with what the detection says
   * about the stored races it did not see ({@link RaceResolution}: fixed, or not re-checked).
   */
  public static void recordDetection(TriageStore store, long runId, Detection d, List<String> warnings) {
    store.inTransaction(() -> {
      storeCandidates(store, d.candidates(), warnings);
      RaceResolution.Outcome resolved = RaceResolution.apply(store, runId, d);
      for (DetectedRace race : d.races().values()) {
        store.races().upsert(toStoreRace(FieldKey.parse(race.fieldKey()), race), runId);
      }
      warnings.addAll(resolved.describe());
      return null;
    });
  }

  /**
   * A stored trial as the scheduler's outcome (it is not a warm-up run: its duration counts), with the heuristics
   * its run would have been alike under, so a resumed unit shares it as the first run of the unit did.
   */
  public static TrialOutcome fromStore(TrialSpec spec, TrialRecord record) {
    Trial t = record.trial();
    TrialOutcome.Result result = switch (t.outcome()) {
      case PASS -> TrialOutcome.Result.PASS;
      case FAIL -> TrialOutcome.Result.FAIL;
      case TIMEOUT -> TrialOutcome.Result.TIMEOUT;
    };
    TrialOutcome o = new TrialOutcome(spec, result, t.duration().toMillis(), t.reads(), t.staleReads(), t.failure(),
        null);
    // what the run would have been alike under counts as it did when the run was made (unknown: nothing)
    return t.sameChoices() == null ? o : o.withSameChoices(t.sameChoices());
  }

  private static void endQuietly(TriageStore store, Run run, RunStatus status, String message) {
    try {
      store.runs().finish(run.id(), status, message, null);
    } catch (RuntimeException e) {
      // the store is what failed: the next open marks the run abandoned
    }
  }

  static final String NO_JUMBLE = "This agent has no adversarial-memory (jumble) mode yet, so no trial ran and every "
      + "race keeps the verdict 'pending'. Use --detect-only to only detect races.";

  /** Opens the run's triage database: the one given, or the project's default. */
  public static TriageStore open(TriageOptions options, Path root) {
    return options.database() == null ? TriageStore.openProject(root) : TriageStore.open(options.database(), root);
  }

  /**
   * Steps 1 to 3: build, static scan, baseline and detection. The result holds what trials need (the test JVMs, the
   * tests that passed their baseline) so that a daemon can run trials for one field at a time afterwards.
   */
  public Detection detect(TriageOptions options, TriageProgress progress, List<String> warnings)
      throws TriageException, InterruptedException {
    Path root = options.project().toAbsolutePath().normalize();

    progress.phase("build", root.toString());
    long buildStart = System.nanoTime();
    MavenProject project;
    try {
      project = new ProjectBuilder(options.buildTimeout()).build(root);
    } catch (ProjectBuildException e) {
      throw new TriageException(e.getMessage(), e);
    }
    long buildMillis = millisSince(buildStart);
    if (project.modules().isEmpty()) {
      throw new TriageException("No compiled tests in " + root + ": racetriage runs a project's JUnit tests "
          + "(src/test/java), and this project has none.");
    }
    progress.phase("scan", "static prefilter");
    List<Candidate> candidates = StaticScan.run(project, warnings);
    Path work = freshWorkDir(root);
    Path agentJar = AgentJar.locate();
    String fingerprint;
    String agentVersion;
    try {
      fingerprint = ClassFingerprint.of(project.modules());
      agentVersion = ClassFingerprint.agentVersion(agentJar);
    } catch (IOException e) {
      throw new TriageException("Cannot read the compiled classes of " + root + ": " + e.getMessage(), e);
    }

    // Baseline: every test once without the agent, each within --test-timeout; its durations set detection's limits.
    TestSelection selection = Preflight.selection(options);
    project.notes().forEach(warnings::add);
    progress.phase("baseline", project.modules().size() + " module(s), each test within "
        + options.testTimeout().toSeconds() + " s");
    long baselineStart = System.nanoTime();
    Map<TestModule, TestJvm> jvms = new LinkedHashMap<>();
    Map<TestModule, TestRunResult> baselines = new LinkedHashMap<>();
    Map<String, BaselineRecheck.Result> rechecked = new LinkedHashMap<>();
    List<HungTest> hung = new ArrayList<>();
    int tests = 0;
    for (TestModule module : project.modules()) {
      TestJvm jvm = testJvm(module, root, agentJar);
      jvms.put(module, jvm);
      Path dir = work.resolve(moduleDirName(module, root)).resolve("baseline");
      TestRunResult baseline;
      try (TestProgressWatcher watch = new TestProgressWatcher(dir, 0, Map.of(), progress,
          "module " + module.name(root))) {
        baseline = new ContinuingTestRun(jvm).run(selection, Optional.empty(),
            TestLimits.uniform(options.testTimeout()), BASELINE_BACKSTOP, dir);
      } catch (IOException e) {
        throw new TriageException("Could not start the baseline JVM for module " + module.name(root) + ": "
            + e.getMessage(), e);
      }
      baselines.put(module, baseline);
      tests += baseline.outcomes().size();
      hung.addAll(hungTests(baseline, "baseline", o -> options.testTimeout().toMillis()));
      // failed or crashed (a hung test has a warning of its own, and a rerun would only hang again)
      List<TestOutcome> failed = baseline.outcomes().stream().filter(TestOutcome::failed)
          .filter(o -> o.status() != TestOutcome.Status.HUNG && o.status() != TestOutcome.Status.TIMED_OUT).toList();
      if (!failed.isEmpty()) {
        try {
          rechecked.putAll(BaselineRecheck.recheck(jvm, failed, options.baselineTimeout(), dir));
        } catch (IOException e) {
          throw new TriageException("Could not start a JVM to re-run the tests that failed the baseline of module "
              + module.name(root) + ": " + e.getMessage(), e);
        }
      }
      progress.step(baselines.size(), project.modules().size(), module.name(root));
    }
    for (HungTest h : hung) {
      warnings.add("The test " + h.test() + " hung in the baseline (still running after its limit of "
          + h.limitMillis() / 1000 + " s; --test-timeout sets it): it was stopped, is not run under the agent, and "
          + "races it touches are reported as flaky. Its thread dump is in the JSON report (hungTests).");
    }
    for (BaselineRecheck.Result r : rechecked.values()) {
      TestOutcome first = r.first();
      warnings.add(r.intermittent()
          ? "The test " + testName(first) + " failed without the agent in " + r.describe() + " (an intermittent "
              + "failure): races it touches are tried, and a failure under sc makes them flaky."
          : "The test " + testName(first) + " fails without the agent (" + first.status().name().toLowerCase(java.util.Locale.ROOT)
              + (r.runs() > 1 ? ", " + r.describe() : "") + "): races it touches are reported as flaky.");
    }
    long baselineMillis = millisSince(baselineStart);
    for (Map.Entry<TestModule, TestRunResult> b : baselines.entrySet()) {
      TestRunResult r = b.getValue();
      if (r.outcomes().isEmpty() && !r.completed() && r.exitCode() != 0) {
        // the JVM never got to the launcher: a bad argLine, a broken JDK, a class path it cannot read
        throw new TriageException("The test JVM of module " + b.getKey().name(root) + " did not start (exit code "
            + r.exitCode() + "), so no test ran. Its output is in " + r.log() + "; its last lines:"
            + System.lineSeparator() + ExternalCommand.tail(r.log(), 15));
      }
    }
    if (tests == 0) {
      throw new TriageException(options.tests() != null
          ? "No test of " + root + " matches --tests " + options.tests() + " (Surefire's -Dtest syntax: Class, "
              + "Class#method, *Test, !Excluded; class names without the package match in any package)."
          : "The tests of " + root + " ran, but there were none to run. racetriage runs the tests 'mvn test' runs: "
              + "JUnit tests whose class names match each module's Surefire includes (by default *Test, *Tests, "
              + "Test*, *TestCase).");
    }

    // Detection: every test once under the agent.
    progress.phase("detect", "tests under the agent, " + options.detectRuns() + " run(s) per JVM, each test within "
        + options.detectTimeoutFactor() + "x its baseline (at least " + DETECT_FLOOR.toSeconds() + " s)");
    long detectStart = System.nanoTime();
    Map<String, DetectedRace> races = new LinkedHashMap<>();
    List<DetectionReport.SkippedClass> skipped = new ArrayList<>();
    List<DetectionReport.UntrackedArray> untracked = new ArrayList<>();
    long predictionStopped = 0;
    List<String> predictionStoppedIn = new ArrayList<>();
    int done = 0;
    int detectRuns = 0;
    boolean complete = true;
    Map<String, Integer> firstRun = new LinkedHashMap<>();
    for (TestModule module : project.modules()) {
      Path dir = work.resolve(moduleDirName(module, root)).resolve("detect");
      TestRunResult baseline = baselines.get(module);
      // tests that hung without the agent are not run again: they would only hang again (a test that ended its JVM
      // runs: its races are seen before the exit, and the next JVM goes on after it)
      Set<String> skip = new LinkedHashSet<>();
      baseline.outcomes().stream().filter(o -> o.status() == TestOutcome.Status.HUNG
          || o.status() == TestOutcome.Status.TIMED_OUT).forEach(o -> skip.add(o.id()));
      if (baseline.outcomes().size() == skip.size()) {
        // a module none of whose tests is selected (or has any: a build-helper module), or all of them hung: nothing
        // to run under the agent, and an agent that instrumented nothing there is not an error
        progress.step(++done, project.modules().size(), module.name(root) + " (no test to run)");
        continue;
      }
      TestLimits limits = TestLimits.scaled(baseline, options.detectTimeoutFactor(), DETECT_FLOOR, options.testTimeout());
      Duration backstop = max(MIN_DETECT_TIMEOUT, baseline.elapsed().multipliedBy(2L * options.detectTimeoutFactor()));
      Map<String, Long> baselineTimes = new LinkedHashMap<>();
      baseline.outcomes().forEach(o -> baselineTimes.put(testName(o), o.millis()));
      Set<String> crashedNatively = new LinkedHashSet<>();
      baseline.outcomes().stream().filter(o -> o.status() == TestOutcome.Status.CRASHED)
          .forEach(o -> crashedNatively.add(o.id()));
      // the detection JVM's heap is sized from the baseline JVM's peak (the memory bound); one that runs out of
      // memory under that limit, where the baseline did not, runs again with the heap it would have had without it
      TestJvm unlimited = jvms.get(module);
      TestJvm limited = unlimited.withBaselineHeap(baseline);
      List<String> attemptWarnings = new ArrayList<>();
      ModuleDetection md;
      try (TestProgressWatcher watch = new TestProgressWatcher(dir, baseline.outcomes().size() - skip.size(),
          baselineTimes, progress, "module " + module.name(root))) {
        md = detectModule(limited, selection, options.detectRuns(), limits, backstop, dir, skip, module, root,
            attemptWarnings, detectAgentOptions(options), crashedNatively);
      }
      if (!limited.detectionHeapOption().equals(unlimited.detectionHeapOption())
          && DetectionHeap.outOfMemory(dir) && !DetectionHeap.outOfMemory(dir.resolveSibling("baseline"))) {
        Path first = DetectionHeap.setAside(dir);
        attemptWarnings.clear();
        progress.phase("detect", "module " + module.name(root) + " ran out of memory under "
            + limited.detectionHeapOption().orElseThrow() + " (sized from its baseline); running it again without it");
        try (TestProgressWatcher watch = new TestProgressWatcher(dir, baseline.outcomes().size() - skip.size(),
            baselineTimes, progress, "module " + module.name(root))) {
          md = detectModule(unlimited, selection, options.detectRuns(), limits, backstop, dir, skip, module, root,
              attemptWarnings, detectAgentOptions(options), crashedNatively);
        }
        warnings.add(DetectionHeap.rerunWarning(module.name(root), limited.detectionHeapOption().orElseThrow(),
            unlimited.detectionHeapOption(), first));
      }
      warnings.addAll(attemptWarnings);
      DetectionRuns run = md.runs();
      DetectionReport detection = md.report();
      hung.addAll(md.hung());
      detectRuns = Math.max(detectRuns, run.runs());
      run.firstRun().forEach((field, r) -> firstRun.merge(field, r, Math::min));
      if (!detection.complete()) {
        String why = run.timedOut() ? "killed after " + backstop.toSeconds() + " s" : "exit code " + run.exitCode();
        if (!detection.partial() || (detection.races().isEmpty() && detection.classesInstrumented() == 0)) {
          throw new TriageException("The detection run of module " + module.name(root) + " ended before the agent "
              + "wrote its report (" + why + "). The JVM's output is in " + run.log() + "; its last lines:"
              + System.lineSeparator() + ExternalCommand.tail(run.log(), LOG_TAIL));
        }
        // the agent streams its report: what it saw before the end is kept, and the user is told the run was cut short
        complete = false;
        warnings.add("Detection of module " + module.name(root) + " ended before its tests finished (" + why + "); the "
            + detection.races().size() + " race(s) the agent had reported by then are kept. The JVM's output is in "
            + run.log() + ".");
      }
      if (detection.classesInstrumented() == 0) {
        throw new TriageException("The agent instrumented no class of module " + module.name(root) + ", so no race "
            + "could be seen; this is an error, not a clean result. Skipped classes: " + detection.skipped());
      }
      skipped.addAll(detection.skipped());
      untracked.addAll(detection.untrackedArrays());
      if (!detection.untrackedArrays().isEmpty()) {
        warnings.add(untrackedWarning(module.name(root), detection.untrackedArrays(), options.maxArrayElements()));
      }
      if (detection.predictionStoppedAfterEvents() > 0) {
        predictionStopped = Math.max(predictionStopped, detection.predictionStoppedAfterEvents());
        predictionStoppedIn.add(module.name(root));
      }
      for (DetectedRace race : detection.races()) {
        races.merge(race.fieldKey(), race, TriagePipeline::merge);
      }
      progress.step(++done, project.modules().size(), module.name(root));
    }
    long detectMillis = millisSince(detectStart);
    if (!predictionStoppedIn.isEmpty()) { // one warning for every module it happened in, not one per module
      warnings.add(predictionStoppedWarning(predictionStoppedIn, predictionStopped));
    }
    List<String> library = List.of();
    if (!options.includeLibraries()) {
      ProjectClasses own = new ProjectClasses(project.modules());
      library = races.keySet().stream().filter(f -> !own.owns(f)).sorted().toList();
      if (!library.isEmpty()) {
        library.forEach(races::remove);
        warnings.add(library.size() + " race(s) on fields of library classes (not compiled by this project) were "
            + "detected and left out: " + String.join(", ", library.subList(0, Math.min(8, library.size())))
            + (library.size() > 8 ? ", …" : "") + ". --include-libraries triages them too.");
      }
    }
    List<String> lateRaces = races.keySet().stream().filter(f -> firstRun.getOrDefault(f, 1) > 1).toList();
    Set<String> baselineFailures = new LinkedHashSet<>();
    Map<String, Detection.WithoutAgent> intermittentFailures = new LinkedHashMap<>();
    Map<String, TestRef> testsByName = new LinkedHashMap<>();
    baselines.forEach((module, b) -> b.outcomes().forEach(o -> {
      BaselineRecheck.Result r = rechecked.get(o.id());
      if (r != null && r.intermittent()) {
        intermittentFailures.put(testName(o), r.withoutAgent());
        testsByName.put(testName(o), new TestRef(o.id(), module, r.passed().millis()));
      } else if (o.failed()) baselineFailures.add(testName(o));
      else if (o.status() == TestOutcome.Status.PASSED) testsByName.put(testName(o), new TestRef(o.id(), module, o.millis()));
    }));
    return new Detection(root, candidates, jvms, testsByName, baselineFailures, intermittentFailures, races, skipped,
        tests, buildMillis, baselineMillis, detectMillis, work, AgentJar.modes(agentJar).contains("jumble"), detectRuns,
        lateRaces, fingerprint, agentVersion, hung, complete, new LinkedHashSet<>(library), untracked,
        predictionStopped);
  }

  /**
   * Arrays the agent did not check (longer than its bound): a coverage gap, said out loud — races on their elements
   * cannot be seen, so "no race" there means "not checked".
   */
  static String untrackedWarning(String module, List<DetectionReport.UntrackedArray> arrays, int bound) {
    return "Module " + module + ": " + arrays.size() + " array(s) too long for the agent to check element by element"
        + " (over " + bound + " elements); races on their elements cannot be seen: "
        + DetectionReport.UntrackedArray.describeAll(arrays) + ". Raise the bound with --max-array-elements"
        + " (12 bytes of shadow per element) to check them.";
  }

  /**
   * The predictive analysis spent its budget in a module's detection JVM: a coverage gap like an unchecked array,
   * said out loud — happens-before still checked the whole run, but a race only another schedule would expose is
   * predicted in the first part of the run only.
   */
  static String predictionStoppedWarning(String module, long events) {
    return predictionStoppedWarning(List.of(module), events);
  }

  /** As {@link #predictionStoppedWarning(String, long)}, once for all the modules it happened in. */
  static String predictionStoppedWarning(List<String> modules, long events) {
    String where = modules.size() == 1 ? "Module " + modules.get(0) + ": the predictive analysis"
        : "Modules " + String.join(", ", modules) + ": in each, the predictive analysis";
    return where + " stopped after " + events + " events (its budget; the rest of"
        + " the run was checked by happens-before only), so races that only another schedule would expose are"
        + " predicted in the part of the tests before that point. --predict runs it over the whole run (it costs up to"
        + " 10x detection on CPU-heavy tests); --tests narrows the run to the tests that matter.";
  }

  /** The detection agent's options beyond mode and report: the arrays bound when it is not the agent's default. */
  static String detectAgentOptions(TriageOptions options) {
    return (options.maxArrayElements() == TriageOptions.DEFAULT_MAX_ARRAY_ELEMENTS ? ""
        : ";arrays=" + options.maxArrayElements()) + predictOption(options.predict())
        + (options.containers() ? "" : ";containers=false");
  }


  /** The agent predicts within its budget by default: only off and unbounded are options. */
  private static String predictOption(TriageOptions.Prediction predict) {
    return switch (predict) {
      case OFF -> ";predict=false";
      case BOUNDED -> "";
      case ALL -> ";predictEvents=0";
    };
  }

  /** What detection saw of one module: how its runs went, the agent's reports read as one, the tests that hung. */
  private record ModuleDetection(DetectionRuns runs, DetectionReport report, List<HungTest> hung) {}

  /**
   * Step 3 for one module: its tests {@code runs} times in one detection JVM ({@link DetectionRuns}), or once. When the
   * repeats do not get through (a test hung and stopped the JVM, a later run would not end, the launcher cannot serve),
   * the tests run once more in fresh JVMs that go on past a hung test ({@link DetectionRuns#continuing}), with a
   * warning: a repeat must never cost the races a single run finds. The reports of every JVM are read as one.
   */
  private static ModuleDetection detectModule(TestJvm jvm, TestSelection selection, int runs, TestLimits limits,
      Duration backstop, Path dir, Set<String> skip, TestModule module, Path root, List<String> warnings,
      String agentOptions, Set<String> crashedNatively)
      throws TriageException, InterruptedException {
    List<Path> reports = new ArrayList<>();
    try {
      if (runs > 1) {
        Path report = dir.resolve("races.jsonl");
        String problem;
        try {
          DetectionRuns repeated = DetectionRuns.repeated(jvm, selection, "mode=detect;out=" + report + agentOptions, runs, backstop,
              dir, limits, skip);
          reports.add(report);
          DetectionReport read = readReport(report);
          if (read.complete()) {
            if (repeated.stopReason() != null) {
              warnings.add("Detection of module " + module.name(root) + " stopped repeating its tests after "
                  + repeated.runs() + " of " + runs + " run(s): " + repeated.stopReason() + ".");
            }
            return new ModuleDetection(repeated, read, List.of());
          }
          problem = repeated.stopReason() != null ? repeated.stopReason()
              : repeated.exitCode() == HUNG_EXIT ? "a test ran past its limit and stopped the JVM"
              : "the JVM did not exit after its runs";
        } catch (IOException e) {
          problem = e.getMessage();
        }
        warnings.add("Detection of module " + module.name(root) + " could not repeat its tests in one JVM (" + problem
            + "); they ran once more in fresh JVMs instead, which go on past a hung test.");
      }
      Path single = dir.resolve(TestProgressWatcher.FRESH_JVMS); // where the progress line follows them
      DetectionRuns.Continued once = DetectionRuns.continuing(jvm, selection,
          n -> "mode=detect;out=" + single.resolve("races-" + n + ".jsonl") + agentOptions, limits, backstop, single,
          skip);
      for (int n = 1; n <= once.result().attempts(); n++) {
        reports.add(single.resolve("races-" + n + ".jsonl"));
      }
      List<HungTest> hung = hungTests(once.result(), "detect", o -> limits.limitFor(o.id()).toMillis());
      for (HungTest h : hung) {
        warnings.add("The test " + h.test() + " hung under the agent (still running after its limit of "
            + h.limitMillis() / 1000 + " s, " + "--detect-timeout-factor times its baseline): it was stopped and the "
            + "other tests went on in a fresh JVM; the races it had shown are kept.");
      }
      warnings.addAll(crashedUnderTheAgent(once.result(), single, crashedNatively));
      return new ModuleDetection(once.runs(), readReports(reports), hung);
    } catch (IOException e) {
      throw new TriageException("Could not start the detect JVM for module " + module.name(root) + ": " + e.getMessage(), e);
    }
  }

  /**
   * A warning for each test that ended its detection JVM although it ran whole without the agent (a test that
   * crashes natively has its baseline warning already): the part of it after that point was not checked. When a
   * detection JVM's output shows an OutOfMemoryError the warning says so and where the heap comes from.
   */
  static List<String> crashedUnderTheAgent(TestRunResult run, Path logs, Set<String> crashedNatively) {
    List<TestOutcome> crashed = run.outcomes().stream()
        .filter(o -> o.status() == TestOutcome.Status.CRASHED && !crashedNatively.contains(o.id())).toList();
    if (crashed.isEmpty()) {
      return List.of();
    }
    boolean outOfMemory = false;
    try (java.util.stream.Stream<Path> files = Files.list(logs)) {
      for (Path log : files.filter(f -> f.getFileName().toString().startsWith("output")).toList()) {
        outOfMemory |= DetectionHeap.mentionsOutOfMemory(log); // an unreadable log only loses the hint
      }
    } catch (IOException e) {
      // no logs: no hint
    }
    String why = outOfMemory
        ? " — the detection JVM ran out of memory (the agent's shadows share the heap: it gets twice the baseline "
          + "JVM's peak heap plus 256 MB, at most twice the argLine's -Xmx plus 256 MB, or the JVM's default; give it "
          + "more with -Xmx in the Surefire <argLine>)"
        : "";
    List<String> out = new ArrayList<>();
    for (TestOutcome o : crashed) {
      out.add("The test " + testName(o) + " ended its detection JVM, although it ran whole without the agent" + why
          + ": the rest of it was not checked; the other tests went on in a fresh JVM, and the races it had shown "
          + "are kept. Its JVM's output is in " + logs + ".");
    }
    return out;
  }

  /** The tests a run stopped at their limit (HUNG) or killed with their JVM (TIMED_OUT), with their dumps. */
  private static List<HungTest> hungTests(TestRunResult run, String phase,
      java.util.function.ToLongFunction<TestOutcome> limit) {
    return run.outcomes().stream()
        .filter(o -> o.status() == TestOutcome.Status.HUNG || o.status() == TestOutcome.Status.TIMED_OUT)
        .map(o -> new HungTest(testName(o), phase, limit.applyAsLong(o), o.threads() == null ? "" : o.threads()))
        .toList();
  }

  /** The launcher's exit code when its watchdog stopped a hung test. */
  private static final int HUNG_EXIT = 4;
  /** Under the agent a test may take {@code --detect-timeout-factor} times its baseline, but never less than this. */
  static final Duration DETECT_FLOOR = Duration.ofSeconds(60);
  /** A baseline JVM the watchdog could not stop (a GC death spiral) is killed after this long. */
  static final Duration BASELINE_BACKSTOP = Duration.ofHours(4);

  /** A test that passed its baseline: how to select it, which module's JVM runs it, and how long it took. */
  public record TestRef(String id, TestModule module, long baselineMillis) {}

  /**
   * Step 4 for the given races: every test that touched each one, under every heuristic, with early stopping.
   * {@code onEach} sees every trial as it ends (the daemon stores them one by one, so a kill loses none).
   */
  public List<TrialOutcome> trials(Detection d, List<DetectedRace> races, TriageOptions options, TriageProgress progress,
      Consumer<TrialOutcome> onEach) throws InterruptedException {
    return trials(d, races, options, progress, null, onEach);
  }

  /** {@link #trials}, taking the runs an interrupted triage finished from {@code reuse} (null: none). */
  public List<TrialOutcome> trials(Detection d, List<DetectedRace> races, TriageOptions options, TriageProgress progress,
      ReusedTrials reuse, Consumer<TrialOutcome> onEach) throws InterruptedException {
    notes.clear();
    Map<TestModule, TestJvm> jvms = d.jvms();
    Path work = d.work();
    Map<String, TestRef> byId = new LinkedHashMap<>();
    List<TrialCell> cells = cells(d, races, options, byId);
    progress.phase("trials", cells.size() + " cell(s), up to " + options.trials() + " run(s) each");
    TrialLimits limits = trialLimits(id -> byId.get(id).baselineMillis());
    JvmTrialExecutor executor = new JvmTrialExecutor(id -> jvms.get(byId.get(id).module()), limits,
        work.resolve("trials"), options.keepWork());
    Instant deadline = options.budget() == null ? null : Instant.now().plus(options.budget());
    AtomicInteger done = new AtomicInteger();
    int estimate = cells.size() * options.trials();
    StoppingRule rule = options.earlyStop() ? StoppingRule.standard(options.trials()) : StoppingRule.exhaustive(options.trials());
    TrialSession.Factory sessions = options.repeatInJvm() ? new ServedTrials(executor) : TrialSession.perRun(executor);
    // Repeating a test in one JVM cannot exercise a race on state that survives the run (a static flag set once):
    // a field it left unexercised is tried again with one run per fresh JVM, as soon as its own units are done.
    TrialSession.Factory fresh = TrialSession.perRun(executor);
    int freshRuns = Math.min(options.trials(), FRESH_JVM_RUNS);
    TrialScheduler scheduler = new TrialScheduler(reuse == null ? sessions : reuse.around(sessions), rule,
        options.jobs(), deadline).withFollowUp(new TrialScheduler.FollowUp(reuse == null ? fresh : reuse.around(fresh),
            options.earlyStop() ? StoppingRule.standard(freshRuns) : StoppingRule.exhaustive(freshRuns),
            (fieldCells, fieldOutcomes) -> {
              List<TrialCell> retry = FreshJvmRetry.cellsToRetry(fieldCells, fieldOutcomes);
              if (!retry.isEmpty()) {
                progress.phase("trials", retry.get(0).fieldKey() + " unexercised in a reused JVM: again with one run "
                    + "per fresh JVM, up to " + freshRuns + " run(s) per heuristic");
              }
              return retry;
            }));
    if (options.repeatInJvm() && options.earlyStop()) {
      scheduler.withGroups(new GroupScreen(executor, rule)); // group testing: a test's races jumbled together first
    }
    // a test that failed its baseline now and then: its runs without the agent are its control's first runs
    Map<String, int[]> withoutAgent = new LinkedHashMap<>();
    d.intermittentFailures().forEach((test, runs) -> {
      TestRef ref = d.testsByName().get(test);
      if (ref != null) withoutAgent.put(ref.id(), new int[] {runs.failures(), runs.runs()});
    });
    scheduler.withoutAgent(withoutAgent);
    List<TrialOutcome> outcomes = scheduler.run(cells, o -> {
      onEach.accept(o);
      progress.step(done.incrementAndGet(), estimate, o.spec().fieldKey() + " " + o.spec().heuristic());
    });
    lastTrialJvms = scheduler.jvmsStarted();
    if (scheduler.groupScreens() > 0) {
      progress.phase("trials", scheduler.groupScreens() + " group screen(s) of races sharing a test; "
          + scheduler.discardedGroupRuns() + " run(s) of groups that were split");
    }
    lastTestRuns = scheduler.testRuns();
    for (String fallback : scheduler.fallbacks()) {
      notes.add("Trials of " + fallback + "; they ran in a JVM each.");
    }
    budgetRanOut = deadline != null && !Instant.now().isBefore(deadline);
    return outcomes;
  }

  /** Every (race, test, heuristic) cell of {@code races}; {@code byId} gets the tests they run, by JUnit id. */
  private static List<TrialCell> cells(Detection d, List<DetectedRace> races, TriageOptions options,
      Map<String, TestRef> byId) {
    List<TrialCell> cells = new ArrayList<>();
    for (DetectedRace race : races) {
      for (String test : race.tests()) {
        TestRef ref = d.testsByName().get(test);
        if (ref == null) continue; // failed its baseline: flaky, nothing to learn from trials
        byId.put(ref.id(), ref);
        for (String heuristic : ContainerRaces.heuristics(race.fieldKey(), options.heuristics())) {
          cells.add(new TrialCell(race.fieldKey(), ref.id(), test, heuristic,
              JumbledIndices.choose(race.fieldKey(), race.indices())));
        }
      }
    }
    return cells;
  }

  /** How a distributing triage shares its trials: the lease a worker holds a unit for between renewals. */
  public record Distribution(Duration lease) {
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(60);

    public Distribution {
      if (lease.compareTo(Duration.ofSeconds(3)) < 0) {
        throw new IllegalArgumentException("--lease must be at least 3s, not " + lease);
      }
    }
  }

  private Distribution distribution;

  /** Whether trials go through the shared queue ({@link #distributed}). */
  public boolean distributes() {
    return distribution != null;
  }

  /** This pipeline, planning its trials into the store's shared queue for workers ({@code triage --distribute}). */
  public TriagePipeline distributed(Distribution how) {
    this.distribution = how;
    return this;
  }

  /**
   * Step 4 distributed ({@link DistributedTrials}): the same cells and settings as {@link #trials}, planned into the
   * shared queue as (race, test) units; this process runs {@code --jobs} of them at a time and workers the rest.
   * Workers store the trials; the outcomes come back with the units.
   */
  public List<TrialOutcome> distributedTrials(TriageStore store, long runId, Detection d, List<DetectedRace> races,
      TriageOptions options, TriageProgress progress) throws InterruptedException {
    if (distribution == null) {
      throw new IllegalStateException("this pipeline does not distribute its trials (see distributed(..))");
    }
    notes.clear();
    Map<String, TestRef> byId = new LinkedHashMap<>();
    List<TrialCell> cells = cells(d, races, options, byId);
    Map<String, TestJvm> jvms = new LinkedHashMap<>();
    d.jvms().forEach((module, jvm) -> jvms.put(module.name(d.root()), jvm));
    Instant deadline = options.budget() == null ? null : Instant.now().plus(options.budget());
    int freshRuns = Math.min(options.trials(), FRESH_JVM_RUNS);
    DistributedTrials.Result r = new DistributedTrials(store, runId,
        new WorkerBuild(d.root(), d.fingerprint(), d.agentVersion(), jvms), d.work().resolve("trials"),
        distribution.lease(), options.jobs(), progress)
        .run(cells, (unit, followUp) -> {
          TestRef ref = byId.get(unit.get(0).testId());
          int[] withoutAgent = nativeRuns(d, List.of(unit.get(0).testName()));
          return UnitSpec.of(ref.module().name(d.root()), ref.baselineMillis(), unit,
              followUp ? freshRuns : options.trials(), options.earlyStop(), options.repeatInJvm(), followUp,
              options.keepWork(), deadline, withoutAgent[1] > 0 ? withoutAgent : null);
        });
    lastTrialJvms = r.jvms();
    lastTestRuns = r.testRuns();
    notes.addAll(r.warnings());
    if (!r.trialsByWorker().isEmpty()) {
      notes.add("Trials by worker: " + r.trialsByWorker().entrySet().stream()
          .map(e -> e.getKey() + " " + e.getValue()).collect(java.util.stream.Collectors.joining(", ")) + ".");
    }
    budgetRanOut = deadline != null && !Instant.now().isBefore(deadline);
    return r.outcomes();
  }

  /**
   * Runs per heuristic of the fresh-JVM retry: each costs a JVM start, and 5 runs without a stale value are what the
   * stopping rule takes for unexercised anyway.
   */
  static final int FRESH_JVM_RUNS = 5;

  /**
   * Test runs of the last {@link #trials} call: a group run is one run though it is an outcome of each of its fields,
   * and runs of split groups (evidence for no race) count too.
   */
  private volatile int lastTestRuns;

  /** Whether the last {@link #trials} call reached {@code --budget} (races it did not decide say so). */
  private volatile boolean budgetRanOut;

  /** Trial JVMs started by the last {@link #trials} call (for the stats). */
  private volatile int lastTrialJvms;
  /** Why trials of the last {@link #trials} call could not reuse a JVM (reported as warnings by {@link #run}). */
  private final List<String> notes = java.util.Collections.synchronizedList(new ArrayList<>());

  /** Each test's trial limit, from its baseline duration (by JUnit unique id) until its own sc runs set one. */
  public static TrialLimits trialLimits(java.util.function.ToLongFunction<String> baselineMillisOfTest) {
    return new TrialLimits(id -> trialTimeout(baselineMillisOfTest.applyAsLong(id)),
        "10x the test's baseline plus " + JVM_STARTUP_ALLOWANCE.toSeconds() + " s for the JVM's start-up, at least "
            + MIN_TRIAL_TIMEOUT.toSeconds() + " s", JVM_STARTUP_ALLOWANCE);
  }

  /** A trial may take ten times its baseline plus the JVM's start-up, and never less than {@link #MIN_TRIAL_TIMEOUT}. */
  static Duration trialTimeout(long baselineMillis) {
    return max(MIN_TRIAL_TIMEOUT, Duration.ofMillis(10 * baselineMillis).plus(JVM_STARTUP_ALLOWANCE));
  }

  public static void storeCandidates(TriageStore store, List<Candidate> candidates, List<String> warnings) {
    List<StaticCandidate> stored = new ArrayList<>();
    for (Candidate c : candidates) {
      try {
        stored.add(StaticScan.toStore(c));
      } catch (IllegalArgumentException e) {
        warnings.add("Static candidate " + c.field() + " has no valid field key: " + e.getMessage());
      }
    }
    store.candidates().replaceAll(stored);
  }

  /**
   * Steps 5 and 6 for one race whose trials are stored: classify them and store the verdict with its evidence; with
   * no trial (detect only), report the stored verdict. A trusted-benign mark is shown, never hiding the evidence.
   */
  public RaceFinding decide(TriageStore store, long runId, Detection d, DetectedRace race, List<TrialOutcome> fieldTrials) {
    FieldKey field = FieldKey.parse(race.fieldKey());
    boolean failsWithoutAgent = race.tests().stream().anyMatch(d.baselineFailures()::contains);
    RaceFinding finding;
    if (budgetRanOut && !failsWithoutAgent && fieldTrials.stream().allMatch(TrialOutcome::isControl)) {
      // the hard limit: no adversarial run of this race started in time; the verdicts reached are kept, this one is
      // unexercised, and says why
      String summary = "not tried: the --budget ran out before this race's trials ran (verdicts reached within it are"
          + " kept; run again with a larger --budget or --field " + race.fieldKey() + ")";
      store.verdicts().set(field, Verdict.UNEXERCISED, new Evidence(summary, null, null, Map.of("budget", "ran out")),
          runId);
      finding = new RaceFinding(race, Verdict.UNEXERCISED, summary, null, 0, List.of(), null, null);
    } else if (!fieldTrials.isEmpty() || failsWithoutAgent) {
      List<HeuristicTrials> evidence = ContainerRaces.evidence(race.fieldKey(), TrialEvidence.byHeuristic(fieldTrials));
      int[] withoutAgent = nativeRuns(d, race.tests());
      Classification c = withBudget(withFreshJvmMode(withIntermittentBaseline(ContainerRaces.described(
          race.fieldKey(), VerdictClassifier.standard().classify(evidence, failsWithoutAgent, withoutAgent[0],
              withoutAgent[1]), evidence), race,
          d.intermittentFailures()), fieldTrials));
      TrialOutcome decisive = c.decisiveHeuristic() == null ? null : TrialEvidence.firstFailure(fieldTrials, c.decisiveHeuristic());
      store.verdicts().set(field, c.verdict(), new Evidence(c.summary(),
          decisive == null ? null : decisive.replayCommand(),
          decisive == null ? null : FailureText.forField(decisive.failure(), field),
          PredictedRaces.withFacts(withTrialFacts(withJumbledIndices(c.facts(), race.fieldKey(), fieldTrials),
              fieldTrials), race, fieldTrials)), runId);
      // the decisive heuristic's failure rate: with stale values, or the control's own (flaky)
      double rate = evidence.stream().filter(t -> t.heuristic().equals(c.decisiveHeuristic()))
          .mapToDouble(t -> t.isControl() ? (double) t.failures() / Math.max(1, t.runs()) : t.observationRate())
          .findFirst().orElse(0);
      finding = new RaceFinding(race, c.verdict(), c.summary(), c.decisiveHeuristic(), rate, summaries(evidence), null,
          decisive == null ? null : FailureText.forField(decisive.failure(), field));
    } else {
      Optional<VerdictRecord> verdict = store.verdicts().current(field);
      finding = new RaceFinding(race, verdict.map(VerdictRecord::verdict).orElse(Verdict.PENDING),
          verdict.map(r -> r.evidence().summary()).orElse("detected; not classified yet"), null, 0, List.of(), null,
          verdict.map(r -> r.evidence().firstFailure()).orElse(null));
    }
    Optional<TrustedBenignMark> mark = store.marks().find(field);
    return mark.isPresent() ? finding.withTrustedBenign(mark.get().note()) : finding;
  }

  /**
   * {failures, runs} without the agent of those of {@code tests} that failed their baseline intermittently (summed):
   * runs served no stale value, which the classifier counts with the control's, and the scheduler seeds each such
   * test's control with.
   */
  static int[] nativeRuns(Detection d, java.util.Collection<String> tests) {
    int[] sum = new int[2];
    for (String test : tests) {
      Detection.WithoutAgent r = d.intermittentFailures().get(test);
      if (r != null) {
        sum[0] += r.failures();
        sum[1] += r.runs();
      }
    }
    return sum;
  }

  /**
   * A race whose test failed its baseline intermittently keeps the trials' verdict, and says so: a destructive one
   * "also fails without the agent (test: k of n runs)", another "intermittent without the agent: …"; the facts hold
   * the native failures ({@code failsWithoutAgent}: test, "k of n runs"). A destructive race whose tests never failed
   * without the agent nor under the {@code sc} control says it "fails only with stale values the JMM allows".
   */
  static Classification withIntermittentBaseline(Classification c, DetectedRace race,
      Map<String, Detection.WithoutAgent> intermittent) {
    List<String> tests = race.tests().stream().filter(intermittent::containsKey).toList();
    boolean destructive = c.verdict() == Verdict.DESTRUCTIVE;
    if (tests.isEmpty()) {
      // "only with stale values" holds when neither the baseline nor the sc control ever failed
      boolean controlClean = "0".equals(c.facts().get(HeuristicTrials.SC + ".failures"))
          && !c.facts().containsKey("unexplainedFailures");
      return destructive && controlClean ? new Classification(c.verdict(),
          c.summary() + (ContainerRaces.isContainer(race.fieldKey()) ? "; fails only when the calls are perturbed"
              : "; fails only with stale values the JMM allows"), c.decisiveHeuristic(), c.facts()) : c;
    }
    Map<String, String> facts = new LinkedHashMap<>(c.facts());
    facts.put("failsWithoutAgent", String.join("; ",
        tests.stream().map(t -> t + " failed " + intermittent.get(t) + " without the agent").toList()));
    String native_ = String.join("; ", tests.stream().map(t -> t + ": " + intermittent.get(t)).toList());
    return new Classification(c.verdict(), c.summary() + (destructive
        ? "; also fails without the agent (" + native_ + ")"
        : " (intermittent without the agent: " + native_ + ")"), c.decisiveHeuristic(), facts);
  }

  /** An unexercised race whose trials the --budget cut short says so: more runs might have exercised it. */
  private Classification withBudget(Classification c) {
    if (!budgetRanOut || c.verdict() != Verdict.UNEXERCISED) return c;
    Map<String, String> facts = new LinkedHashMap<>(c.facts());
    facts.put("budget", "ran out");
    return new Classification(c.verdict(), c.summary() + " (the --budget ran out before its trials were done)",
        c.decisiveHeuristic(), facts);
  }

  /**
   * A race that only the fresh-JVM retry exercised says so in its summary: repeating the test in one JVM served no
   * stale value (state that survives a run, such as a static flag), so its verdict rests on runs in fresh JVMs.
   */
  static Classification withFreshJvmMode(Classification c, List<TrialOutcome> trials) {
    String mode = FreshJvmRetry.exercisedIn(trials);
    if (mode == null || !mode.startsWith("fresh JVMs (one run each): ")) return c;
    return new Classification(c.verdict(), c.summary() + " (exercised only with one run per fresh JVM: repeating the"
        + " test in one JVM served no stale value)", c.decisiveHeuristic(), c.facts());
  }

  /** For an array key, the elements its trials jumbled join the evidence's facts ({@code jumbledIndices}). */
  private static Map<String, String> withJumbledIndices(Map<String, String> facts, String fieldKey,
      List<TrialOutcome> trials) {
    String jumbled = trials.isEmpty() ? null : JumbledIndices.describe(fieldKey, trials.get(0).spec().indices());
    if (jumbled == null) return facts;
    Map<String, String> more = new LinkedHashMap<>(facts);
    more.put("jumbledIndices", jumbled);
    return more;
  }

  /**
   * The trials' own facts: which mode served the stale values ({@code exercisedIn}: a reused JVM, fresh JVMs), and
   * when runs timed out, how many under which heuristic, the limit and the machine's load ({@code timeouts}).
   */
  private static Map<String, String> withTrialFacts(Map<String, String> facts, List<TrialOutcome> trials) {
    Map<String, String> more = new LinkedHashMap<>(facts);
    String exercisedIn = FreshJvmRetry.exercisedIn(trials);
    if (exercisedIn != null) more.put("exercisedIn", exercisedIn);
    String timeouts = TrialEvidence.timeoutFact(trials);
    if (timeouts != null) more.put("timeouts", timeouts);
    return more;
  }

  private static List<RaceFinding.TrialSummary> summaries(List<HeuristicTrials> evidence) {
    return evidence.stream().map(t -> new RaceFinding.TrialSummary(t.heuristic(), t.runs(), t.failures(), t.staleReads(),
        VerdictClassifier.median(t.durationsMillis()))).toList();
  }

  public static Trial toStoreTrial(FieldKey field, TrialOutcome t) {
    dev.racetriage.store.trials.TrialOutcome outcome = switch (t.result()) {
      case PASS -> dev.racetriage.store.trials.TrialOutcome.PASS;
      case FAIL -> dev.racetriage.store.trials.TrialOutcome.FAIL;
      case TIMEOUT -> dev.racetriage.store.trials.TrialOutcome.TIMEOUT;
    };
    return new Trial(field, t.spec().testName(), t.spec().heuristic(), t.spec().seed(), outcome,
        Duration.ofMillis(t.millis()), t.reads(), t.staleReads(), FailureText.forField(t.failure(), field),
        t.sameChoices());
  }

  public static Race toStoreRace(FieldKey field, DetectedRace race) {
    Set<RaceKind> kinds = EnumSet.noneOf(RaceKind.class);
    if (race.wr() > 0) kinds.add(RaceKind.WR);
    if (race.ww() > 0) kinds.add(RaceKind.WW);
    if (kinds.isEmpty()) kinds.add(RaceKind.WR);
    List<AccessSite> accesses = new ArrayList<>();
    boolean firstIsWrite = race.ww() > 0 && race.wr() == 0;
    accesses.add(site(firstIsWrite ? AccessType.WRITE : AccessType.READ, race.current()));
    accesses.add(site(AccessType.WRITE, race.previous()));
    for (DetectedRace.SitePair pair : race.sitePairs()) {
      accesses.add(site("WW".equals(pair.kind()) ? AccessType.WRITE : AccessType.READ, pair.current()));
      accesses.add(site(AccessType.WRITE, pair.previous()));
    }
    return new Race(field, kinds, accesses, new LinkedHashSet<>(race.tests()));
  }

  private static AccessSite site(AccessType type, DetectedRace.Access access) {
    return new AccessSite(type, access.thread(), access.file(), access.line(), access.stack());
  }

  static DetectedRace merge(DetectedRace a, DetectedRace b) {
    return a.mergedWith(b);
  }


  /** The JVM that runs {@code module}'s tests (with the agent when asked), as baseline, detection and trials do. */
  public static TestJvm testJvm(TestModule module, Path root, Path agentJar) throws TriageException, InterruptedException {
    return new TestJvm(module, launcher(module, root), agentJar);
  }

  private static List<Path> launcher(TestModule module, Path root) throws TriageException, InterruptedException {
    try {
      return JUnitPlatformJars.launcherFor(module, root);
    } catch (ProjectBuildException e) {
      throw new TriageException(e.getMessage(), e);
    }
  }

  private static DetectionReport readReports(List<Path> reports) throws TriageException {
    try {
      return DetectionReport.readAll(reports);
    } catch (IOException e) {
      throw new TriageException("The agent's reports " + reports + " cannot be read: " + e.getMessage(), e);
    }
  }

  private static DetectionReport readReport(Path report) throws TriageException {
    try {
      return DetectionReport.read(report);
    } catch (IOException e) {
      throw new TriageException("The agent's report " + report + " cannot be read: " + e.getMessage(), e);
    }
  }

  /** {@code .racetriage/work} under the project, emptied: the logs of the last run stay there for a look. */
  private static Path freshWorkDir(Path root) throws TriageException {
    Path work = root.resolve(TriageStore.DIRECTORY).resolve("work");
    try {
      if (Files.exists(work)) {
        try (Stream<Path> files = Files.walk(work)) {
          for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(p);
          }
        }
      }
      Files.createDirectories(work);
      return work;
    } catch (IOException e) {
      throw new TriageException("Cannot prepare the work directory " + work + ": " + e.getMessage(), e);
    }
  }

  static String moduleDirName(TestModule module, Path root) {
    String name = module.name(root);
    return ".".equals(name) ? "root" : name.replace('/', '_').replace('\\', '_');
  }

  static String testName(TestOutcome outcome) {
    return outcome.className() + "#" + (outcome.method() == null ? outcome.name() : outcome.method());
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
