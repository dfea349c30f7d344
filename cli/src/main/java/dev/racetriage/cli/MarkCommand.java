package dev.racetriage.cli;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.StoreException;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.marks.TrustedBenignMark;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

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

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    FieldKey key = parseField();
    String who = author != null && !author.isBlank() ? author.strip() : System.getProperty("user.name", "unknown");
    if (note.isBlank()) {
      throw new ParameterException(spec.commandLine(), "--note must say why the race is harmless");
    }
    Path projectDir = project.toAbsolutePath().normalize();
    Path dbFile = db != null ? db : TriageStore.defaultDatabase(projectDir);
    // A field with no race yet may be marked: teams mark ahead of detection.
    try (TriageStore store = TriageStore.open(dbFile, projectDir)) {
      TrustedBenignMark mark = store.marks().markTrustedBenign(key, who, note.strip());
      spec.commandLine().getOut().println(
          "Marked " + mark.field() + " trusted-benign (author " + mark.author() + "); recorded in "
              + store.file() + " and " + store.marks().mirror().file() + ".");
      return 0;
    } catch (StoreException e) {
      throw new UserError(e.getMessage(), 1, e);
    }
  }

  private FieldKey parseField() {
    try {
      return FieldKey.parse(field);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e, null, field);
    }
  }
}
