package dev.racetriage.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "scan",
    mixinStandardHelpOptions = true,
    description = {
      "Static prefilter: list candidate racy fields from the sources (lockset analysis), with a confidence",
      "and the reasons for it. Runs no test."
    })
final class ScanCommand implements Callable<Integer> {

  @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "Project directory (default: .)")
  Path project = Path.of(".");

  @Option(names = "--format", paramLabel = "FORMAT", description = "text, json or sarif (default: ${DEFAULT-VALUE})")
  String format = "text";

  @Override
  public Integer call() {
    throw NotBuiltYet.of("racetriage scan", "the static prefilter");
  }
}
