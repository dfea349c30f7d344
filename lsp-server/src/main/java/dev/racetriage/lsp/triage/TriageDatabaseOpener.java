package dev.racetriage.lsp.triage;

import java.nio.file.Path;

/** Opens the triage database at a path; throws with a message the user can act on when it cannot. */
@FunctionalInterface
public interface TriageDatabaseOpener {
  TriageDatabase open(Path database, Path workspaceRoot, boolean createIfMissing);
}
