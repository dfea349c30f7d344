package dev.racetriage.cli;

import dev.racetriage.runner.daemon.TriageDaemon;
import dev.racetriage.runner.triage.TriageException;
import dev.racetriage.runner.triage.TriageOptions;
import dev.racetriage.runner.triage.TriagePipeline;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "daemon",
    mixinStandardHelpOptions = true,
    description = {
      "Triage again, in the background, whatever a project's changes touch.",
      "Rebuilds and detects when a pom.xml or a file under src/ changes, queues the fields whose races are new,",
      "unclassified or touched by the change, and triages them one at a time. The work queue lives in the triage",
      "database, so editors can queue fields too and a stopped daemon resumes where it was. Stop it with Ctrl-C."
    })
final class DaemonCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "Maven project directory (default: .)")
  Path project = Path.of(".");

  @Option(names = "--db", paramLabel = "FILE", description = "Triage database (default: DIR/.racetriage/triage.db)")
  Path db;

  @Option(names = "--trials", paramLabel = "N", description = "Runs per test and heuristic (default: ${DEFAULT-VALUE})")
  int trials = 20;

  @Option(names = "--jobs", paramLabel = "N", description = "Trial JVMs run in parallel (default: number of cores)")
  Integer jobs;

  @Option(names = "--poll", paramLabel = "DURATION", description = "How often to look for changes (default: ${DEFAULT-VALUE})")
  String poll = "2s";

  @Option(names = "--distribute", description = "Plan each field's trials into the database's shared queue, for "
      + "'racetriage worker' processes (and this daemon) to run; see 'triage --distribute'")
  boolean distribute;

  @Override
  public Integer call() throws InterruptedException {
    if (!Files.isRegularFile(project.resolve("pom.xml"))) {
      throw new UserError(project.toAbsolutePath().normalize() + " is not a Maven project (no pom.xml).", 2);
    }
    TriageOptions options;
    try {
      TriageOptions defaults = TriageOptions.defaults(project);
      options = new TriageOptions(project, db, false, trials, defaults.heuristics(),
          jobs == null ? defaults.jobs() : jobs, null, defaults.buildTimeout(), defaults.baselineTimeout());
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage(), 2);
    }
    Duration interval = DurationOption.parse("--poll", poll);
    AtomicBoolean stop = new AtomicBoolean();
    Thread main = Thread.currentThread();
    Thread hook = new Thread(() -> {
      stop.set(true);
      main.interrupt();
    }, "racetriage-daemon-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    TerminalProgress progress = new TerminalProgress(spec.commandLine().getErr(), false);
    try {
      TriageDaemon daemon = new TriageDaemon(options, progress, spec.commandLine().getErr(), interval);
      if (distribute) {
        daemon.distributed(new TriagePipeline.Distribution(TriagePipeline.Distribution.DEFAULT_LEASE));
      }
      daemon.run(stop::get);
    } catch (InterruptedException e) {
      if (!stop.get()) throw e; // stopped by Ctrl-C: a normal end
    } catch (TriageException e) {
      throw new UserError(e.getMessage(), 2, e);
    }
    return 0;
  }
}
