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
}
