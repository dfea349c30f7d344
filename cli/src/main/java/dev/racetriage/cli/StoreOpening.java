package dev.racetriage.cli;

import dev.racetriage.store.engine.StoreLocation;
import dev.racetriage.store.StoreException;
import dev.racetriage.store.TriageStore;
import java.nio.file.Path;

/**
 * Opens a project's store for a command, and turns every reason it cannot be used (corrupt, read-only, locked, not a
 * racetriage file, an invalid marks file) into one {@code racetriage: …} line and exit code 1, before the command
 * does any work.
 */
final class StoreOpening {
  /** The exit code of a command whose store cannot be used (README, "Exit codes"). */
  static final int UNUSABLE_STORE = 1;

  private StoreOpening() {}

  static TriageStore open(StoreLocation location, Path projectDir) {
    try {
      return TriageStore.open(location, projectDir);
    } catch (StoreException e) {
      throw failed(e);
    }
  }

  /** A store failure after opening (a write that met a lock, a marks file changed under the command). */
  static UserError failed(StoreException e) {
    return new UserError(oneLine(e.getMessage()), UNUSABLE_STORE, e);
  }

  static String oneLine(String message) {
    return message == null ? "cannot use the triage database" : message.replaceAll("\\s*\\R\\s*", " ");
  }
}
