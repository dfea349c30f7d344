package dev.racetriage.cli;

import dev.racetriage.store.engine.StoreLocation;
import dev.racetriage.runner.report.SourceLocator;
import dev.racetriage.runner.report.TriageJson;
import dev.racetriage.runner.report.TriageSarif;
import dev.racetriage.runner.triage.TriageException;
import dev.racetriage.runner.triage.TriageOptions;
import dev.racetriage.runner.triage.TriagePipeline;
import dev.racetriage.runner.triage.TriageResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "triage",
    mixinStandardHelpOptions = true,
    description = {
      "Find the races a project's tests exercise and classify each one.",
      "Builds the Maven project, runs its tests under the agent, replays them with adversarial memory and gives",
      "every race a verdict (destructive, qos, benign, unexercised or flaky) with its evidence, stored in the",
      "triage database.",
      "Heuristics (how a trial picks the stale value a read returns): sc = none, the control (sequential",
      "consistency); oldest = the oldest value the write buffer holds; oldest-but-different = the oldest that",
      "differs from the current one; random / random-but-different = a seeded random choice (different from the",
      "current one). A destructive verdict needs failures significantly more frequent than under sc.",
      "Exit code: 0 nothing destructive; 1 a destructive race, including one marked trusted-benign unless",
      "--allow-overridden; 2 error."
    })
final class TriageCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "Maven project directory (default: .)")
  Path project = Path.of(".");

  @Option(names = "--format", paramLabel = "FORMAT", description = "table, json or sarif (default: ${DEFAULT-VALUE})")
  String format = "table";

  @Option(names = "--out", paramLabel = "FILE", description = "Write the report to FILE instead of standard output")
  Path out;

  @Option(names = "--db", paramLabel = StoreLocationOption.LABEL, converter = StoreLocationOption.class,
      description = StoreLocationOption.DESCRIPTION)
  StoreLocation db;

  @Option(names = "--detect-only", description = "Only detect races; run no adversarial trials")
  boolean detectOnly;

  @Option(names = "--trials", paramLabel = "N", description = "Runs per test and heuristic at most (default:"
      + " ${DEFAULT-VALUE}); the sc control behind a conviction that is not yet significant runs up to 3x that")
  int trials = 20;

  @Option(
      names = "--heuristics",
      split = ",",
      paramLabel = "LIST",
      description = "Read heuristics to try: sc, oldest, oldest-but-different, random, random-but-different")
  List<String> heuristics;

  @Option(names = "--jobs", paramLabel = "N", description = "Trial JVMs run in parallel (default: number of cores)")
  Integer jobs;

  @Option(names = "--budget", paramLabel = "DURATION", description = "Stop planning new trials after this long (e.g. 10m)")
  String budget;

  @Option(names = "--field", split = ",", paramLabel = "FIELD",
      description = "Run trials only for these fields (pkg.Class.field); the other races keep their stored verdicts")
  List<String> fields;

  @Option(names = "--no-early-stop", description = "Run every heuristic --trials times (no sequential early stopping)")
  boolean noEarlyStop;

  @Option(names = "--jvm-per-trial", description = "Start a JVM for every trial instead of repeating a test in one JVM")
  boolean jvmPerTrial;

  @Option(names = "--detect-runs", paramLabel = "N", description = "Run the tests N times in the detection JVM and "
      + "take the union of the races (schedule-dependent races show in some runs only; default: "
      + TriageOptions.DEFAULT_DETECT_RUNS + ")")
  int detectRuns = TriageOptions.DEFAULT_DETECT_RUNS;

  @Option(names = "--tests", paramLabel = "PATTERN", description = {
      "Run only these tests, in Surefire's -Dtest syntax: Class, Class#method, Class#m1+m2, wildcards (*Test,",
      "pkg/**/Foo*), !exclusions, comma lists, %%regex[...] (default: the tests 'mvn test' runs, as each module's",
      "Surefire configuration chooses them)"})
  String tests;

  @Option(names = "--test-timeout", paramLabel = "DURATION", description = "Each test's limit without the agent "
      + "(the baseline); a test past it is reported hung and the other tests go on (default: 3m)")
  String testTimeout;

  @Option(names = "--detect-timeout-factor", paramLabel = "N", description = "Each test's limit under the agent, as a "
      + "multiple of its baseline time (default: " + TriageOptions.DEFAULT_DETECT_TIMEOUT_FACTOR + ")")
  int detectTimeoutFactor = TriageOptions.DEFAULT_DETECT_TIMEOUT_FACTOR;

  @Option(names = "--keep-work", description = "Keep every trial's logs in DIR/.racetriage/work (default: the logs of "
      + "passing trials are deleted as they finish; every log is capped at its first and last megabyte)")
  boolean keepWork;

  @Option(names = "--allow-overridden", description = "Exit 0 when every destructive race is marked trusted-benign "
      + "(default: a destructive race fails the run even when marked: the mark overrides failing evidence)")
  boolean allowOverridden;

  @Option(names = "--max-array-elements", paramLabel = "N", description = "Arrays longer than this are not checked "
      + "element by element under the agent (12 bytes of shadow per element); the triage names any it left unchecked "
      + "(default: ${DEFAULT-VALUE}).")
  int maxArrayElements = TriageOptions.DEFAULT_MAX_ARRAY_ELEMENTS;

  @Option(names = "--predict", description = "Predict over the whole of every detection run, at any cost. By default "
      + "the agent runs WCP beside happens-before, so two synchronized blocks on one lock that touch nothing in common "
      + "do not hide the race between accesses around them (such races are marked predicted, with the lock order to "
      + "flip), for each test's first events once a second thread takes part (its budget: it then stops, and the triage "
      + "says so); on CPU-heavy "
      + "tests the whole run costs up to 10x detection (benchmarks/RESULTS.md)")
  boolean predict;

  @Option(names = "--no-predict", description = "Do not predict: report only the races of the observed schedules "
      + "(happens-before)")
  boolean noPredict;

  @Option(names = "--no-containers", description = "Do not report container races: by default the agent models the "
      + "JDK's unsynchronised containers (HashMap, ArrayList, TreeMap, StringBuilder, SimpleDateFormat, ...) at their "
      + "call sites and reports two threads' unordered calls on one as a race on the field that holds it "
      + "(pkg.Cls.map{}), tried by perturbing the schedule at those calls")
  boolean noContainers;

  @Option(names = "--include-libraries", description = "Also triage races on fields of library classes (default: only "
      + "fields of classes the project compiles; the others are named in a warning)")
  boolean includeLibraries;

  @Option(names = "--distribute", description = "Plan the trials into the database's shared queue: 'racetriage worker'"
      + " processes on other machines or checkouts run them with this triage, which runs --jobs at a time itself and "
      + "waits for the whole plan (use a database every worker reaches, e.g. PostgreSQL)")
  boolean distribute;

  @Option(names = "--lease", paramLabel = "DURATION", description = "With --distribute: how long a unit claimed by a"
      + " worker is held between renewals; a killed worker's units run again after it (default: 60s)")
  String lease;

  @Override
  public Integer call() throws InterruptedException {
    if (!List.of("table", "json", "sarif").contains(format)) {
      throw new UserError("--format must be table, json or sarif, not '" + format + "'", 2);
    }
    TriageOptions options;
    try {
      options = new TriageOptions(project, db, detectOnly, trials,
          heuristics == null ? TriageOptions.ALL_HEURISTICS : heuristics,
          jobs == null ? Runtime.getRuntime().availableProcessors() : jobs,
          budget == null ? null : DurationOption.parse("--budget", budget),
          Duration.ofMinutes(10), Duration.ofMinutes(10), !noEarlyStop, !jvmPerTrial,
          fields == null ? List.of() : fields, detectRuns, tests,
          testTimeout == null ? TriageOptions.DEFAULT_TEST_TIMEOUT : DurationOption.parse("--test-timeout", testTimeout),
          detectTimeoutFactor, keepWork, includeLibraries, maxArrayElements).withPredict(prediction())
          .withContainers(!noContainers);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage(), 2);
    }
    TriagePipeline pipeline = new TriagePipeline();
    try {
      if (distribute) {
        pipeline.distributed(new TriagePipeline.Distribution(lease == null
            ? TriagePipeline.Distribution.DEFAULT_LEASE : DurationOption.parse("--lease", lease)));
      } else if (lease != null) {
        throw new IllegalArgumentException("--lease only applies with --distribute");
      }
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage(), 2);
    }
    checkWritable(out);
    PrintWriter err = spec.commandLine().getErr();
    TerminalProgress progress = new TerminalProgress(err, System.console() != null);
    TriageResult result;
    try {
      result = pipeline.run(options, progress);
    } catch (TriageException e) {
      progress.finishLine();
      throw new UserError(e.getMessage(), 2, e);
    }
    progress.finishLine();
    SourceLocator sources = new SourceLocator(project);
    String report = switch (format) {
      case "json" -> TriageJson.render(result, sources);
      case "sarif" -> TriageSarif.render(result, sources);
      default -> TriageTable.render(result, sources);
    };
    write(report);
    result.warnings().forEach(w -> err.println("racetriage: " + w));
    if (!result.classified()) {
      return 2; // the warning above says why no verdict could be given
    }
    if (result.hasDestructive()) {
      return 1;
    }
    List<String> overridden = result.races().stream()
        .filter(r -> r.verdict() == dev.racetriage.store.verdicts.Verdict.DESTRUCTIVE && r.trustedBenign())
        .map(r -> r.race().fieldKey()).toList();
    if (!overridden.isEmpty() && !allowOverridden) {
      err.println("racetriage: " + String.join(", ", overridden) + (overridden.size() == 1 ? " is" : " are")
          + " destructive and marked trusted-benign: the mark overrides failing evidence, so this run exits 1. "
          + "Pass --allow-overridden to accept the override (e.g. in CI), or fix the race.");
      return 1;
    }
    return 0;
  }

  /**
   * Fails now, not after an hour of trials, when the report cannot be written: creates the directories and opens the
   * file for appending (which changes nothing in an existing file; a file created here is removed again).
   */
  /** --predict and --no-predict; neither: the agent's bounded default. */
  private TriageOptions.Prediction prediction() {
    if (predict && noPredict) {
      throw new IllegalArgumentException("--predict and --no-predict contradict each other: give one");
    }
    return predict ? TriageOptions.Prediction.ALL
        : noPredict ? TriageOptions.Prediction.OFF : TriageOptions.Prediction.BOUNDED;
  }

  static void checkWritable(Path out) {
    if (out == null) return;
    try {
      Path parent = out.toAbsolutePath().getParent();
      if (parent != null) Files.createDirectories(parent);
      boolean existed = Files.exists(out);
      Files.newOutputStream(out, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND).close();
      if (!existed) Files.delete(out);
    } catch (IOException e) {
      throw new UserError("Cannot write the report to " + out + " (" + e.getMessage() + "); choose another --out.", 2, e);
    }
  }

  private void write(String report) {
    if (out == null) {
      spec.commandLine().getOut().print(report);
      spec.commandLine().getOut().flush();
      return;
    }
    try {
      Path parent = out.toAbsolutePath().getParent();
      if (parent != null) Files.createDirectories(parent);
      Files.writeString(out, report);
    } catch (IOException e) {
      throw new UserError("Cannot write the report to " + out + ": " + e.getMessage(), 2, e);
    }
  }
}
