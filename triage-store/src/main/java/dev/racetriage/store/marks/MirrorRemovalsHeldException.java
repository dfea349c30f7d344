package dev.racetriage.store.marks;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.StoreException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A mark or reopen was refused because the mirror file dropped several marks that the database still holds: writing
 * the file now would put them back, undoing what may be a teammate's reopen. Nothing was changed.
 */
public final class MirrorRemovalsHeldException extends StoreException {
  private static final int LISTED = 10;

  private final List<FieldKey> held;

  public MirrorRemovalsHeldException(Path mirrorFile, List<FieldKey> held) {
    super(message(mirrorFile, held));
    this.held = List.copyOf(held);
  }

  public List<FieldKey> held() {
    return held;
  }

  /** Why the marks were kept and the two ways out; shared by the exception and the commands that report a sync. */
  public static String message(Path mirrorFile, List<FieldKey> held) {
    String listed = held.stream().limit(LISTED).map(FieldKey::toString).collect(Collectors.joining(", "))
        + (held.size() > LISTED ? " and " + (held.size() - LISTED) + " more" : "");
    return mirrorFile + " no longer holds " + held.size() + " trusted-benign marks that the database has (" + listed
        + "); they are kept, because a file that lost several marks at once is more often a bad merge than a "
        + "teammate's reopen. If they were reopened in a committed change, run 'racetriage marks sync "
        + "--accept-removals'; to keep them and write them back into the file, run 'racetriage marks sync "
        + "--keep-marks' (or restore the file from git). Until then no mark or reopen is recorded.";
  }
}
