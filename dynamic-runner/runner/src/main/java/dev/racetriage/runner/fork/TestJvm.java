package dev.racetriage.runner.fork;

import dev.racetriage.runner.process.ExternalCommand;
import dev.racetriage.runner.project.SurefireConfig;
import dev.racetriage.runner.project.TestModule;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Forks one JVM that runs a module's tests through the in-JVM launcher, with or without the agent, and reads back
 * what each test did. The JVM is started as Surefire would start it: in the module's working directory, with its
 * {@code argLine}, system properties, environment variables and JUnit Platform configuration parameters.
 */
public final class TestJvm {
  private final TestModule module;
  private final List<Path> extraClasspath;
  private final Path agentJar;
  /** A detection JVM's heap limit in bytes, or 0: the one {@link ArgLine#detectionHeap} derives from the argLine. */
  private final long detectionHeapBytes;

  public TestJvm(TestModule module, List<Path> launcherJars, Path agentJar) {
    this.module = module;
    this.agentJar = agentJar;
    List<Path> extra = new ArrayList<>(launcherJars);
    extra.add(AgentJar.launcher());
    extra.add(agentJar);
    this.extraClasspath = List.copyOf(extra);
    this.detectionHeapBytes = 0;
  }

  private TestJvm(TestJvm jvm, long detectionHeapBytes) {
    this.module = jvm.module;
    this.agentJar = jvm.agentJar;
    this.extraClasspath = jvm.extraClasspath;
    this.detectionHeapBytes = detectionHeapBytes;
  }

  /**
   * This JVM with its detection runs limited to a heap of {@code bytes} ({@code -Xmx}, after the argLine's own: the
   * last limit counts); baseline and trial JVMs are unchanged. See {@link ArgLine#detectionHeapFromBaseline}.
   */
  public TestJvm withDetectionHeap(long bytes) {
    if (bytes <= 0) throw new IllegalArgumentException("a heap limit must be positive, not " + bytes);
    return new TestJvm(this, bytes);
  }

  /**
   * This JVM with its detection runs' heap sized from {@code baseline}, a run of this JVM without the agent:
   * {@link ArgLine#detectionHeapFromBaseline} of the baseline JVMs' peak committed heap. Unchanged when a baseline
   * JVM did not say its peak (it crashed or exited before its summary), or when the limit would be no lower than the
   * heap the detection JVM gets without it.
   */
  public TestJvm withBaselineHeap(TestRunResult baseline) {
    java.util.Optional<ResultsReader.BaselineHeap> heap = ResultsReader.baselineHeap(baseline.resultsFiles());
    if (heap.isEmpty()) {
      return this;
    }
    List<String> argLine = ArgLine.withoutCoverageAgents(ArgLine.tokens(module.surefire().argLine()));
    java.util.OptionalLong limit = ArgLine.detectionHeapFromBaseline(argLine, heap.get().peakBytes(),
        heap.get().maxBytes());
    return limit.isPresent() ? withDetectionHeap(limit.getAsLong()) : this;
  }

  /** The heap limit of this JVM's detection runs, if one is set: {@link #withDetectionHeap} or the argLine's. */
  public Optional<String> detectionHeapOption() {
    return detectionHeapOption(ArgLine.withoutCoverageAgents(ArgLine.tokens(module.surefire().argLine())));
  }

  private Optional<String> detectionHeapOption(List<String> argLine) {
    return detectionHeapBytes > 0 ? Optional.of(ArgLine.xmx(detectionHeapBytes)) : ArgLine.detectionHeap(argLine);
  }

  public TestModule module() {
    return module;
  }

  /**
   * Runs the selection in one JVM, with no per-test limit. {@code agentOptions} empty: no agent (the baseline);
   * present: {@code -javaagent} with that option string. Files go to {@code workDir} ({@code results.jsonl},
   * {@code output.log}). To bound each test and continue after a hang, use {@link ContinuingTestRun}.
   */
  public TestRunResult run(TestSelection selection, Optional<String> agentOptions, Duration timeout, Path workDir)
      throws IOException, InterruptedException {
    Files.createDirectories(workDir);
    return attempt(selection, agentOptions, List.of(), timeout, workDir.resolve("results.jsonl"),
        workDir.resolve("output.log")).run();
  }

  /** One JVM with extra launcher options (limits, skipped ids), its results in {@code results}, its output in {@code log}. */
  ResultsReader.Attempt attempt(TestSelection selection, Optional<String> agentOptions, List<String> launcherOptions,
      Duration timeout, Path results, Path log) throws IOException, InterruptedException {
    Files.deleteIfExists(results);
    Files.createDirectories(module.workingDirectory());
    ExternalCommand command = new ExternalCommand(command(selection, agentOptions, results, launcherOptions),
        module.workingDirectory(), module.surefire().environment());
    return ResultsReader.read(results, command.run(timeout, log));
  }

  /** The full command line of a test JVM (run in {@link #workingDirectory()} with {@link #environment()}). */
  public List<String> command(TestSelection selection, Optional<String> agentOptions, Path results) {
    return command(selection, agentOptions, results, List.of());
  }

  List<String> command(TestSelection selection, Optional<String> agentOptions, Path results, List<String> launcherOptions) {
    SurefireConfig surefire = module.surefire();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // racetriage's agent first: it then sees the classes before another agent of the argLine adds its own bookkeeping
    agentOptions.ifPresent(options -> command.add("-javaagent:" + agentJar + "=" + options));
    List<String> argLine = ArgLine.withoutCoverageAgents(ArgLine.tokens(surefire.argLine()));
    boolean detection = agentOptions.isPresent() && agentOptions.get().startsWith("mode=detect");
    if (detection) {
      ArgLine.detectionCollector(argLine, surefire.environment()).ifPresent(command::add);
      ArgLine.detectionGcTimeRatio(argLine, surefire.environment()).ifPresent(command::add);
      ArgLine.detectionSoftReferences(argLine, surefire.environment()).ifPresent(command::add);
    }
    command.addAll(argLine);
    if (detection) {
      detectionHeapOption(argLine).ifPresent(command::add); // after the argLine's: the last limit counts
    }
    // Surefire sets basedir in every test JVM; the pom's system properties come after the argLine and win over it
    command.add("-Dbasedir=" + module.dir());
    surefire.systemProperties().forEach((k, v) -> command.add("-D" + k + "=" + v));
    command.add("-cp");
    List<String> classpath = new ArrayList<>();
    module.testClasspath().forEach(p -> classpath.add(p.toString()));
    extraClasspath.forEach(p -> classpath.add(p.toString()));
    command.add(String.join(File.pathSeparator, classpath));
    command.add(AgentJar.launcherMainClass());
    command.add("--results");
    command.add(results.toString());
    command.addAll(selection.launcherArguments(module));
    surefire.configurationParameters().forEach((k, v) -> {
      command.add("--config");
      command.add(k + "=" + v);
    });
    command.addAll(launcherOptions);
    if (agentOptions.isEmpty()) {
      command.add("--heap-peak"); // the baseline's peak heap sizes the detection JVM's
    }
    return command;
  }

  /**
   * The command as a user can paste it into a POSIX shell to replay the run: {@code cd} to the working directory,
   * the pom's environment variables, then the JVM.
   */
  public String replayCommand(TestSelection selection, Optional<String> agentOptions, Path results) {
    StringBuilder line = new StringBuilder("cd ").append(ShellQuote.quote(workingDirectory().toString())).append(" && ");
    Map<String, String> env = environment();
    if (!env.isEmpty()) {
      line.append("env");
      env.forEach((k, v) -> line.append(' ').append(ShellQuote.quote(k + "=" + v)));
      line.append(' ');
    }
    line.append(String.join(" ", command(selection, agentOptions, results).stream().map(ShellQuote::quote).toList()));
    return line.toString();
  }

  public Path workingDirectory() {
    return module.workingDirectory();
  }

  /** The environment variables the pom's Surefire configuration adds. */
  public Map<String, String> environment() {
    return module.surefire().environment();
  }

  /**
   * Starts a trial server: a JVM that runs the selection once per command (the launcher's {@code --serve} mode), with
   * the agent started with {@code agentOptions}. Its stderr (the tests' output too) goes to {@code log}.
   */
  public TrialServerProcess serve(TestSelection selection, String agentOptions, Path results, Path log,
      Duration startTimeout) throws IOException, InterruptedException {
    return serve(selection, agentOptions, results, log, startTimeout, TestLimits.NONE);
  }

  /**
   * A trial server whose tests are bounded by {@code limits}: a test past its limit makes the JVM write a
   * {@code hung} line to {@code results} and halt with exit code 4 (the server answers {@link TrialServerProcess.Reply.Ended}).
   */
  public TrialServerProcess serve(TestSelection selection, String agentOptions, Path results, Path log,
      Duration startTimeout, TestLimits limits) throws IOException, InterruptedException {
    return serve(selection, agentOptions, results, log, startTimeout, limits, java.util.Set.of());
  }

  /** {@link #serve(TestSelection, String, Path, Path, Duration, TestLimits)}, never running the {@code skip} ids. */
  public TrialServerProcess serve(TestSelection selection, String agentOptions, Path results, Path log,
      Duration startTimeout, TestLimits limits, java.util.Collection<String> skip) throws IOException, InterruptedException {
    Path limitsFile = results.resolveSibling(results.getFileName() + ".limits");
    List<String> launcherOptions = new ArrayList<>(limits.launcherArguments(limitsFile));
    if (!skip.isEmpty()) {
      Path skipFile = results.resolveSibling(results.getFileName() + ".skip");
      Files.write(skipFile, skip);
      launcherOptions.add("--skip-ids");
      launcherOptions.add(skipFile.toString());
    }
    List<String> command = new ArrayList<>(command(selection, Optional.of(agentOptions), results, launcherOptions));
    command.add("--serve");
    Files.createDirectories(module.workingDirectory());
    return TrialServerProcess.start(command, module.workingDirectory(), module.surefire().environment(), log, startTimeout);
  }
}
