package dev.racetriage.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One run of the {@code racetriage} command as {@code main} would run it, with what it printed. */
record CliRun(int exitCode, String out, String err) {

  static CliRun run(String... args) {
    CommandLine cli = RacetriageCommand.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }
}
