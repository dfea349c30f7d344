package dev.racetriage.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code racetriage} command: one entry point, one subcommand per job. */
@Command(
    name = "racetriage",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Tells which of a Java project's data races matter.",
      "Detects the races its JUnit tests really exercise, replays them with adversarial memory",
      "(stale values the Java Memory Model allows) and classifies each one as destructive, qos,",
      "benign, unexercised or flaky."
    },
    subcommands = {
      TriageCommand.class,
      WorkerCommand.class,
      ScanCommand.class,
      DaemonCommand.class,
      LspCommand.class,
      DashboardCommand.class,
      ReportCommand.class,
      ReplayCommand.class,
      MarkCommand.class,
      MarksCommand.class,
      CommandLine.HelpCommand.class
    },
    footer = {
      "",
      "Run 'racetriage COMMAND --help' for the options of one command.",
      "In a source checkout, 'racetriage bench [OUTPUT]' regenerates benchmarks/RESULTS.md (benchmarks/run-all.sh)."
    })
public final class RacetriageCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Builds the command line with the house error handling, so tests and {@link #main} behave alike. */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new RacetriageCommand());
    cli.setExecutionExceptionHandler(new UserErrorHandler());
    return cli;
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }
}
