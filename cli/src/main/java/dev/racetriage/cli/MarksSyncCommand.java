package dev.racetriage.cli;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.StoreException;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.marks.MirrorRemovalsHeldException;
import dev.racetriage.store.marks.MirrorSync;
import dev.racetriage.store.marks.RemovalPolicy;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
    name = "sync",
    mixinStandardHelpOptions = true,
    description = {
      "Import .racetriage/trusted-benign.json into the database (every command does this when it opens the",
      "database) and list each mark imported or removed. A file that dropped one mark removes it (a teammate's",
      "reopen); a file that dropped several is held until you decide with --accept-removals or --keep-marks.",
      "Exit code: 0 in step, 1 removals are held or the database cannot be used."
    })
final class MarksSyncCommand implements Callable<Integer> {

  static final class Decision {
    @Option(names = "--accept-removals", description = "Remove every mark the file dropped (they were reopened)")
    boolean acceptRemovals;

    @Option(names = "--keep-marks", description = "Keep the marks the file dropped and write them back into it")
    boolean keepMarks;
  }

  @ArgGroup(exclusive = true)
  Decision decision = new Decision();

  @Mixin StoreOptions options;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    try (TriageStore store = StoreOpening.open(options.location(), options.projectDir())) {
      MirrorSyncReport.print(store.mirrorSync(), store.marks().mirror().file(), out);
      if (decision.acceptRemovals) {
        MirrorSync accepted = store.marks().syncFromMirror(RemovalPolicy.ACCEPT);
        MirrorSyncReport.print(accepted, store.marks().mirror().file(), out);
        return 0;
      }
      if (decision.keepMarks) {
        List<FieldKey> kept = store.marks().keepMarks();
        kept.forEach(field -> out.println("Kept the mark of " + field + " and wrote it back into "
            + store.marks().mirror().file() + "; commit the file."));
        return 0;
      }
      List<FieldKey> held = store.mirrorSync().held();
      if (!held.isEmpty()) {
        held.forEach(field -> out.println("Held: " + field + " is no longer in " + store.marks().mirror().file()
            + " but is still marked trusted-benign in the database."));
        spec.commandLine().getErr().println(
            "racetriage: " + MirrorRemovalsHeldException.message(store.marks().mirror().file(), held));
        return StoreOpening.UNUSABLE_STORE;
      }
      out.println("Nothing held: the database has " + store.marks().all().size() + " trusted-benign marks"
          + (store.marks().mirror().exists() ? "" : "; " + store.marks().mirror().file() + " does not exist yet (the "
              + "next mark writes it)") + ".");
      return 0;
    } catch (StoreException e) {
      throw StoreOpening.failed(e);
    }
  }
}
