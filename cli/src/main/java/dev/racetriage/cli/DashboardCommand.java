package dev.racetriage.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "dashboard",
    mixinStandardHelpOptions = true,
    description = {
      "Serve the team triage dashboard.",
      "Verdict counts, the race table, the evidence per race, and triage actions (mark trusted-benign,",
      "reopen, comment) with an audit log."
    })
final class DashboardCommand implements Callable<Integer> {

  @Option(names = "--db", paramLabel = "FILE", description = "Triage database (default: ./.racetriage/triage.db)")
  Path db;

  @Option(names = "--port", paramLabel = "PORT", description = "HTTP port (default: ${DEFAULT-VALUE})")
  int port = 7070;

  @Option(names = "--bind", paramLabel = "ADDRESS", description = "Address to bind (default: ${DEFAULT-VALUE})")
  String bind = "127.0.0.1";

  @Option(names = "--token", paramLabel = "TOKEN", description = "Require this token for every change")
  String token;

  @Override
  public Integer call() {
    throw NotBuiltYet.of("racetriage dashboard", "the web dashboard");
  }
}
