package dev.racetriage.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "triage",
    mixinStandardHelpOptions = true,
    description = {
      "Find the races a project's tests exercise and classify each one.",
      "Builds the Maven project, runs its tests under the agent, replays them with adversarial memory and gives",
      "every race a verdict (destructive, qos, benign, unexercised or flaky) with its evidence, stored in the",
      "triage database."
    })
final class TriageCommand implements Callable<Integer> {

  @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "Maven project directory (default: .)")
  Path project = Path.of(".");

  @Option(names = "--format", paramLabel = "FORMAT", description = "table, json or sarif (default: ${DEFAULT-VALUE})")
  String format = "table";

  @Option(names = "--out", paramLabel = "FILE", description = "Write the report to FILE instead of standard output")
  Path out;

  @Option(names = "--db", paramLabel = "FILE", description = "Triage database (default: DIR/.racetriage/triage.db)")
  Path db;

  @Option(names = "--detect-only", description = "Only detect races; run no adversarial trials")
  boolean detectOnly;

  @Option(names = "--trials", paramLabel = "N", description = "Runs per test and heuristic (default: ${DEFAULT-VALUE})")
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

  @Override
  public Integer call() {
    throw NotBuiltYet.of("racetriage triage", "the dynamic runner");
  }
}
