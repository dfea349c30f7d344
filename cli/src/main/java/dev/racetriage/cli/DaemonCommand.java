package dev.racetriage.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "daemon",
    mixinStandardHelpOptions = true,
    description = {
      "Triage again, in the background, whatever a project's changes touch.",
      "The work queue lives in the triage database, so a stopped daemon resumes where it was."
    })
final class DaemonCommand implements Callable<Integer> {

  @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "Maven project directory (default: .)")
  Path project = Path.of(".");

  @Option(names = "--db", paramLabel = "FILE", description = "Triage database (default: DIR/.racetriage/triage.db)")
  Path db;

  @Override
  public Integer call() {
    throw NotBuiltYet.of("racetriage daemon", "the dynamic runner");
  }
}
