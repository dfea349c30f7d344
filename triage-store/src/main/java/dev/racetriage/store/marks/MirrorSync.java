package dev.racetriage.store.marks;

import dev.racetriage.store.FieldKey;
import java.util.List;

/**
 * What reading the mirror file changed in the database: marks added or updated from the file (a teammate's
 * committed marks), and marks removed because the file no longer has them (a teammate reopened them).
 */
public record MirrorSync(List<TrustedBenignMark> imported, List<FieldKey> removed) {
  public MirrorSync {
    imported = List.copyOf(imported);
    removed = List.copyOf(removed);
  }

  public static MirrorSync none() {
    return new MirrorSync(List.of(), List.of());
  }

  public boolean changedAnything() {
    return !imported.isEmpty() || !removed.isEmpty();
  }
}
