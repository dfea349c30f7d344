package dev.racetriage.runner.triage;

import dev.racetriage.runner.detect.DetectedRace;
import dev.racetriage.runner.detect.DetectionReport;
import dev.racetriage.runner.fork.AgentJar;
import dev.racetriage.runner.process.ExternalCommand;
import dev.racetriage.runner.fork.JUnitPlatformJars;
import dev.racetriage.runner.fork.TestJvm;
import dev.racetriage.runner.fork.TestOutcome;
import dev.racetriage.runner.fork.TestRunResult;
import dev.racetriage.runner.fork.TestSelection;
import dev.racetriage.runner.project.MavenProject;
import dev.racetriage.runner.project.ProjectBuildException;
import dev.racetriage.runner.project.ProjectBuilder;
import dev.racetriage.runner.project.TestModule;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.StoreException;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.marks.TrustedBenignMark;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.AccessType;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.store.verdicts.Verdict;
import dev.racetriage.store.verdicts.VerdictRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The verdict pipeline of ARCHITECTURE.md: build the project, run each module's tests once without the agent
 * (baseline), once under the agent in detect mode (the races that really happen and the tests that touched them),
 * then store the races and report them with their verdicts.
 */
public final class TriagePipeline {
  /** Test frameworks and mocking libraries: their races are not the project's. */
  static final List<String> TEST_LIBRARIES = List.of(
      "org.junit.", "junit.", "org.opentest4j.", "org.apiguardian.", "org.hamcrest.", "org.assertj.",
      "org.mockito.", "net.bytebuddy.", "org.objenesis.", "org.apache.maven.surefire.");

  private static final Duration MIN_DETECT_TIMEOUT = Duration.ofMinutes(2);
  private static final int DETECT_TIMEOUT_FACTOR = 10;
  private static final int LOG_TAIL = 30;

  public TriageResult run(TriageOptions options, TriageProgress progress) throws TriageException, InterruptedException {
    long start = System.nanoTime();
    Path root = options.project().toAbsolutePath().normalize();
    List<String> warnings = new ArrayList<>();

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
    Path work = freshWorkDir(root);
    Path agentJar = AgentJar.locate();

    // Baseline: every test once without the agent; its durations set the detection timeout.
    progress.phase("baseline", project.modules().size() + " module(s)");
    long baselineStart = System.nanoTime();
    Map<TestModule, TestJvm> jvms = new LinkedHashMap<>();
    Map<TestModule, TestRunResult> baselines = new LinkedHashMap<>();
    int tests = 0;
    for (TestModule module : project.modules()) {
      TestJvm jvm = new TestJvm(module, launcher(module, root), agentJar);
      jvms.put(module, jvm);
      TestRunResult baseline = runJvm(jvm, Optional.empty(), options.baselineTimeout(), work, module, root, "baseline");
      baselines.put(module, baseline);
      tests += baseline.outcomes().size();
      for (TestOutcome failed : baseline.outcomes().stream().filter(TestOutcome::failed).toList()) {
        warnings.add("The test " + testName(failed) + " fails without the agent (" + failed.status().name().toLowerCase()
            + "): races it touches are reported as flaky.");
      }
      progress.step(baselines.size(), project.modules().size(), module.name(root));
    }
    long baselineMillis = millisSince(baselineStart);
    if (tests == 0) {
      throw new TriageException("The tests of " + root + " ran, but there were none to run. racetriage needs JUnit "
          + "tests whose class names follow Surefire's pattern (*Test, *Tests, Test*).");
    }

    // Detection: every test once under the agent.
    progress.phase("detect", "tests under the agent");
    long detectStart = System.nanoTime();
    Map<String, DetectedRace> races = new LinkedHashMap<>();
    List<DetectionReport.SkippedClass> skipped = new ArrayList<>();
    int done = 0;
    for (TestModule module : project.modules()) {
      Path report = work.resolve(moduleDirName(module, root)).resolve("detect").resolve("races.jsonl");
      Duration timeout = max(MIN_DETECT_TIMEOUT, baselines.get(module).elapsed().multipliedBy(DETECT_TIMEOUT_FACTOR));
      String agentOptions = "mode=detect;out=" + report + ";exclude=" + String.join(",", TEST_LIBRARIES);
      TestRunResult run = runJvm(jvms.get(module), Optional.of(agentOptions), timeout, work, module, root, "detect");
      DetectionReport detection = readReport(report);
      if (!detection.complete()) {
        throw new TriageException("The detection run of module " + module.name(root) + " ended before the agent wrote "
            + "its report (" + (run.timedOut() ? "killed after " + timeout.toSeconds() + " s" : "exit code " + run.exitCode())
            + "). The JVM's output is in " + run.log() + "; its last lines:" + System.lineSeparator() + ExternalCommand.tail(run.log(), LOG_TAIL));
      }
      if (detection.classesInstrumented() == 0) {
        throw new TriageException("The agent instrumented no class of module " + module.name(root) + ", so no race "
            + "could be seen; this is an error, not a clean result. Skipped classes: " + detection.skipped());
      }
      skipped.addAll(detection.skipped());
      for (DetectedRace race : detection.races()) {
        races.merge(race.fieldKey(), race, TriagePipeline::merge);
      }
      progress.step(++done, project.modules().size(), module.name(root));
    }
    long detectMillis = millisSince(detectStart);
    if (!options.detectOnly()) {
      warnings.add("Adversarial trials are not built yet in this version, so every race keeps the verdict 'pending'. "
          + "Use --detect-only to only detect races.");
    }
    Set<String> baselineFailures = new LinkedHashSet<>();
    baselines.values().forEach(b -> b.outcomes().stream().filter(TestOutcome::failed).forEach(o -> baselineFailures.add(testName(o))));

    progress.phase("store", races.size() + " race(s)");
    List<RaceFinding> findings = store(options, root, races.values(), baselineFailures);
    TriageStats stats = new TriageStats(buildMillis, baselineMillis, detectMillis, 0, 0, millisSince(start), tests, skipped);
    return new TriageResult(findings, warnings, stats);
  }

  private List<RaceFinding> store(TriageOptions options, Path root, java.util.Collection<DetectedRace> races,
      Set<String> baselineFailures) throws TriageException {
    try (TriageStore store = options.database() == null ? TriageStore.openProject(root) : TriageStore.open(options.database(), root)) {
      Run run = store.runs().start(options.detectOnly() ? "detect" : "triage", null, null);
      List<RaceFinding> findings = new ArrayList<>();
      for (DetectedRace race : races) {
        FieldKey field = FieldKey.parse(race.fieldKey());
        store.races().upsert(toStoreRace(field, race), run.id());
        Optional<VerdictRecord> verdict = store.verdicts().current(field);
        Optional<TrustedBenignMark> mark = store.marks().find(field);
        boolean flaky = race.tests().stream().anyMatch(baselineFailures::contains);
        Verdict v = flaky ? Verdict.FLAKY : verdict.map(VerdictRecord::verdict).orElse(Verdict.PENDING);
        String reason = flaky ? "a test that touches it fails without the agent"
            : verdict.map(r -> r.evidence().summary()).orElse("detected; not classified yet");
        findings.add(new RaceFinding(race, v, reason, null, 0, List.of(), mark.map(TrustedBenignMark::note).orElse(null)));
      }
      store.runs().finish(run.id(), RunStatus.SUCCEEDED, races.size() + " race(s) detected", null);
      findings.sort(Comparator.comparing(RaceFinding::verdict).thenComparing(f -> f.race().fieldKey()));
      return findings;
    } catch (StoreException e) {
      throw new TriageException(e.getMessage(), e);
    }
  }

  static Race toStoreRace(FieldKey field, DetectedRace race) {
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
    List<DetectedRace.SitePair> pairs = new ArrayList<>(a.sitePairs());
    b.sitePairs().stream().filter(p -> !pairs.contains(p)).forEach(pairs::add);
    Set<String> tests = new LinkedHashSet<>(a.tests());
    tests.addAll(b.tests());
    return new DetectedRace(a.fieldKey(), a.count() + b.count(), a.wr() + b.wr(), a.ww() + b.ww(), a.current(),
        a.previous(), pairs, new ArrayList<>(tests));
  }

  private static TestRunResult runJvm(TestJvm jvm, Optional<String> agent, Duration timeout, Path work, TestModule module,
      Path root, String what) throws TriageException, InterruptedException {
    try {
      return jvm.run(TestSelection.ALL, agent, timeout, work.resolve(moduleDirName(module, root)).resolve(what));
    } catch (IOException e) {
      throw new TriageException("Could not start the " + what + " JVM for module " + module.name(root) + ": " + e.getMessage(), e);
    }
  }

  private static List<Path> launcher(TestModule module, Path root) throws TriageException, InterruptedException {
    try {
      return JUnitPlatformJars.launcherFor(module, root);
    } catch (ProjectBuildException e) {
      throw new TriageException(e.getMessage(), e);
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
