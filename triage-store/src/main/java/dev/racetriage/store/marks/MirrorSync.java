package dev.racetriage.store.marks;

import dev.racetriage.store.FieldKey;
import java.util.List;

/**
 * What reading the mirror file changed in the database: marks added or updated from the file (a teammate's
 * committed marks), marks removed because the file no longer has them (a teammate reopened them), and marks the file
 * dropped that were kept because dropping several at once needs a person's decision ({@link RemovalPolicy}).
 */
public record MirrorSync(List<TrustedBenignMark> imported, List<FieldKey> removed, List<FieldKey> held) {
  public MirrorSync {
    imported = List.copyOf(imported);
    removed = List.copyOf(removed);
    held = List.copyOf(held);
  }

  public static MirrorSync none() {
    return new MirrorSync(List.of(), List.of(), List.of());
  }

  public boolean changedAnything() {
    return !imported.isEmpty() || !removed.isEmpty();
  }

  /**
   * One line per mark this sync imported or removed, and one for the removals it held, so that no mark is imported or
   * removed without the user seeing it (every command that opens a store prints them; the audit log keeps the same).
   */
  public List<String> describe(java.nio.file.Path mirrorFile) {
    List<String> lines = new java.util.ArrayList<>();
    for (TrustedBenignMark mark : imported) {
      lines.add("Imported the mark of " + mark.field() + " (author " + mark.author() + ") from " + mirrorFile + ".");
    }
    for (FieldKey field : removed) {
      lines.add("Removed the mark of " + field + ": it is no longer in " + mirrorFile + " (reopened in a committed change).");
    }
    if (!held.isEmpty()) {
      lines.add(MirrorRemovalsHeldException.message(mirrorFile, held));
    }
    return lines;
  }
}
