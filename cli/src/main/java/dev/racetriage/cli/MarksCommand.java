package dev.racetriage.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(
    name = "marks",
    mixinStandardHelpOptions = true,
    description = "Keep the database's trusted-benign marks and the committed .racetriage/trusted-benign.json in step.",
    subcommands = MarksSyncCommand.class)
final class MarksCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
