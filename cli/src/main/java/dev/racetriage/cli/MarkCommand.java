package dev.racetriage.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "mark",
    mixinStandardHelpOptions = true,
    description = {
      "Record a team decision about a racy field. A trusted-benign mark hides the race from diagnostics",
      "(never from the evidence) and is mirrored to .racetriage/trusted-benign.json for the team to commit."
    })
final class MarkCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "FIELD", description = "Field key, e.g. com.example.Cache.hash or com.example.Buf.slots[]")
  String field;

  @Option(names = "--trusted-benign", required = true, description = "Mark the field trusted-benign")
  boolean trustedBenign;

  @Option(names = "--note", required = true, paramLabel = "TEXT", description = "Why the race is harmless")
  String note;

  @Option(names = "--author", paramLabel = "NAME", description = "Who decided (default: the user name)")
  String author;

  @Option(names = "--project", paramLabel = "DIR", description = "Project directory (default: .)")
  Path project = Path.of(".");

  @Option(names = "--db", paramLabel = "FILE", description = "Triage database (default: DIR/.racetriage/triage.db)")
  Path db;

  @Override
  public Integer call() {
    throw NotBuiltYet.of("racetriage mark", "the triage store");
  }
}
