package dev.racetriage.runner.replay;

import dev.racetriage.runner.fork.AgentJar;
import dev.racetriage.runner.fork.JUnitPlatformJars;
import dev.racetriage.runner.fork.TestJvm;
import dev.racetriage.runner.fork.TestOutcome;
import dev.racetriage.runner.fork.TestRunResult;
import dev.racetriage.runner.fork.TestSelection;
import dev.racetriage.runner.project.MavenProject;
import dev.racetriage.runner.project.ProjectBuildException;
import dev.racetriage.runner.project.ProjectBuilder;
import dev.racetriage.runner.project.TestModule;
import dev.racetriage.runner.triage.TriageException;
import dev.racetriage.runner.trial.JvmTrialExecutor;
import dev.racetriage.runner.trial.TrialSpec;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.replay.ReplayTarget;
import dev.racetriage.store.trials.FailureText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs one stored trial again, as the triage ran it: the project is built, the test's module found, and the test run
 * in a JVM of its own with the agent jumbling the field under the trial's heuristic and seed (and, for an array, the
 * elements the trial jumbled). Everything goes to a fresh directory under {@code .racetriage/replay/}, so the
 * stored trial's files and the last triage's work directory are never touched.
 */
public final class TrialReplay {
  /** What the replay did: passed or not, the failure as the user should read it, the reads, and where the files are. */
  public record Result(boolean failed, boolean timedOut, String failure, long reads, long staleReads, Path dir,
      Path commandFile) {}

  private final Duration buildTimeout;
  private final Duration testTimeout;

  public TrialReplay(Duration buildTimeout, Duration testTimeout) {
    this.buildTimeout = buildTimeout;
    this.testTimeout = testTimeout;
  }

  public Result run(Path projectDir, ReplayTarget target, List<Integer> indices, Consumer<String> progress)
      throws TriageException, InterruptedException {
    Path root = projectDir.toAbsolutePath().normalize();
    progress.accept("building " + root);
    MavenProject project;
    try {
      project = new ProjectBuilder(buildTimeout).build(root);
    } catch (ProjectBuildException e) {
      throw new TriageException(e.getMessage(), e);
    }
    String testClass = target.test().contains("#") ? target.test().substring(0, target.test().indexOf('#'))
        : target.test();
    TestModule module = project.modules().stream()
        .filter(m -> Files.isRegularFile(m.testClasses().resolve(testClass.replace('.', '/') + ".class")))
        .findFirst()
        .orElseThrow(() -> new TriageException("The test class " + testClass + " is not among the compiled tests of "
            + root + " (was it renamed or removed since the triage?). 'racetriage report' lists each race's tests."));
    TestJvm jvm;
    try {
      jvm = new TestJvm(module, JUnitPlatformJars.launcherFor(module, root), AgentJar.locate());
    } catch (ProjectBuildException e) {
      throw new TriageException(e.getMessage(), e);
    }
    Path dir = freshDir(root);
    Path report = dir.resolve("jumble.jsonl");
    TrialSpec spec = new TrialSpec(target.field().toString(), target.test(), target.test(), target.heuristic(),
        target.seed(), indices);
    TestSelection selection = TestSelection.matching(target.test());
    Optional<String> agent = Optional.of(spec.agentOptions(report.toString()));
    progress.accept("running " + target.test() + " with " + target.field() + " jumbled (" + target.heuristic()
        + ", seed " + target.seed() + ") in " + dir);
    TestRunResult run;
    try {
      run = jvm.run(selection, agent, testTimeout, dir);
    } catch (IOException e) {
      throw new TriageException("The test JVM could not start: " + e.getMessage(), e);
    }
    long[] reads = JvmTrialExecutor.readCounts(report, spec.fieldKey());
    // the raw test JVM line, for whoever wants to run it without racetriage (a debugger, a profiler)
    Path command = dir.resolve("command.sh");
    try {
      Files.writeString(command, "#!/bin/sh\n" + jvm.replayCommand(selection, agent, dir.resolve("results.jsonl"))
          + "\n");
    } catch (IOException e) {
      command = null;
    }
    Optional<TestOutcome> failed = run.outcomes().stream().filter(TestOutcome::failed).findFirst();
    if (run.timedOut()) {
      return new Result(true, true, "the test did not finish within " + testTimeout.toSeconds() + " s (a hang)",
          reads[0], reads[1], dir, command);
    }
    if (failed.isPresent()) {
      TestOutcome o = failed.get();
      String failure = o.failure() == null ? o.status().name() : o.failure().stack();
      return new Result(true, false, FailureText.forField(failure, target.field()), reads[0], reads[1], dir, command);
    }
    if (run.outcomes().isEmpty()) {
      return new Result(true, false, "the test JVM ran no test (exit code " + run.exitCode() + "); its output is in "
          + run.log(), reads[0], reads[1], dir, command);
    }
    return new Result(false, false, null, reads[0], reads[1], dir, command);
  }

  /** {@code .racetriage/replay/<time>[-n]}: a new directory for every replay. */
  private static Path freshDir(Path root) throws TriageException {
    Path base = root.resolve(TriageStore.DIRECTORY).resolve("replay");
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    try {
      Files.createDirectories(base);
      for (int n = 0; ; n++) {
        Path dir = base.resolve(n == 0 ? stamp : stamp + "-" + n);
        try {
          return Files.createDirectory(dir);
        } catch (java.nio.file.FileAlreadyExistsException taken) {
          // another replay in the same second
        }
      }
    } catch (IOException e) {
      throw new TriageException("Cannot create a replay directory under " + base + ": " + e.getMessage(), e);
    }
  }

}
