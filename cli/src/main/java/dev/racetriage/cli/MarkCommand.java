package dev.racetriage.cli;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.StoreException;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.marks.TrustedBenignMark;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
      "(never from the evidence) and is mirrored to .racetriage/trusted-benign.json for the team to commit.",
      "Refused (exit 2) unless a flag says it is meant: a field nothing knows (--force), a destructive race",
      "(--override-destructive: recorded as such in the audit log; 'triage' still fails on it unless",
      "--allow-overridden), a field already marked with another note (--replace).",
      "Exit code: 0 recorded, 1 the database or the marks file cannot be used, 2 bad usage or refused."
    })
final class MarkCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "FIELD", description = "Field key, e.g. com.example.Cache.hash or com.example.Buf.slots[]")
  String field;

  @Option(names = "--trusted-benign", required = true, description = "Mark the field trusted-benign")
  boolean trustedBenign;

  @Option(names = "--note", required = true, paramLabel = "TEXT",
      description = "Why the race is harmless (at most " + TrustedBenignMark.MAX_NOTE + " characters)")
  String note;

  @Option(names = "--author", paramLabel = "NAME", description = "Who decided (default: the user name)")
  String author;

  @Option(names = "--force", description = "Mark a field that no race, candidate or source declaration names yet")
  boolean force;

  @Option(names = "--override-destructive", description = "Mark a race whose verdict is destructive, against that "
      + "evidence (recorded as an override in the audit log; 'triage' exits 1 on it unless --allow-overridden)")
  boolean overrideDestructive;

  @Option(names = "--replace", description = "Replace the note of an existing mark (the old one stays in the audit log)")
  boolean replace;

  @Mixin StoreOptions options;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    FieldKey key = parseField();
    String who = author != null && !author.isBlank() ? author.strip() : System.getProperty("user.name", "unknown");
    String why = note.strip();
    if (why.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "--note must say why the race is harmless");
    }
    if (why.length() > TrustedBenignMark.MAX_NOTE) {
      throw new ParameterException(spec.commandLine(), "--note is " + why.length() + " characters long; at most "
          + TrustedBenignMark.MAX_NOTE + " are kept. Shorten it, or put the details in an issue and link to it.");
    }
    PrintWriter out = spec.commandLine().getOut();
    try (TriageStore store = StoreOpening.open(options.location(), options.projectDir())) {
      MirrorSyncReport.print(store.mirrorSync(), store.marks().mirror().file(), out);
      if (!force) {
        MarkChecks.requireKnown(store, key);
      }
      boolean destructive = MarkChecks.destructive(store, key);
      if (destructive && !overrideDestructive) {
        MarkChecks.refuseDestructive(store, key);
      }
      Optional<TrustedBenignMark> earlier = store.marks().find(key);
      if (!replace) {
        MarkChecks.requireNoOtherNote(earlier, why);
      }
      TrustedBenignMark mark = store.marks().markTrustedBenign(key, who, why, destructive);
      out.println("Marked " + mark.field() + " trusted-benign (author " + mark.author() + "); recorded in "
          + store.location().display() + " and " + store.marks().mirror().file() + ".");
      if (destructive) {
        out.println("This overrides a destructive verdict: the audit log records it as such, and 'racetriage triage' "
            + "still exits 1 on this race unless it is given --allow-overridden.");
      }
      earlier.filter(before -> !before.note().equals(why) || !before.author().equals(who)).ifPresent(before ->
          out.println("This replaces the earlier mark by " + before.author() + " (" + before.markedAt() + "): \""
              + before.note() + "\" (kept in the audit log)."));
      return 0;
    } catch (StoreException e) {
      throw StoreOpening.failed(e);
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
