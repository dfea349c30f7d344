package dev.racetriage.cli;

import dev.racetriage.prefilter.Analysis;
import dev.racetriage.prefilter.Prefilter;
import dev.racetriage.prefilter.report.ReportFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

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

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    ReportFormat reportFormat = ReportFormat.parse(format).orElseThrow(() -> new UserError(
        "unknown --format '" + format + "'; use one of " + ReportFormat.names(), 2));
    Path dir = project.toAbsolutePath().normalize();
    if (!Files.isDirectory(dir)) {
      throw new UserError("cannot scan " + dir + ": no such directory. Give the directory of a Java project.", 2);
    }
    Prefilter prefilter;
    try {
      prefilter = Prefilter.open(dir);
    } catch (IllegalArgumentException e) {
      throw new UserError("cannot scan " + dir + ": " + e.getMessage(), 2, e);
    }
    if (!prefilter.classpath().status().isComplete()) {
      spec.commandLine().getErr().println("racetriage: warning: " + prefilter.classpath().detail()
          + "; scanning without a classpath, confidence lowered");
    }
    Analysis analysis = prefilter.scan();
    analysis.problems().forEach(problem -> spec.commandLine().getErr().println("racetriage: warning: " + problem));
    String version = new VersionProvider().getVersion()[0].replaceFirst("^racetriage ", "");
    spec.commandLine().getOut().print(reportFormat.render(analysis, dir, version));
    spec.commandLine().getOut().flush();
    return 0;
  }
}
