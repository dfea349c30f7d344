package dev.racetriage.lsp.analysis;

import dev.racetriage.lsp.lifecycle.ClientLog;
import dev.racetriage.lsp.progress.WorkProgress;
import dev.racetriage.lsp.settings.ServerSettings;
import dev.racetriage.lsp.workspace.WorkspaceLayout;

/** Creates the static analysis of a workspace once the server knows it (at {@code initialize}). */
@FunctionalInterface
public interface StaticCandidatesFactory {
  StaticCandidates create(WorkspaceLayout workspace, ServerSettings settings, ClientLog log, WorkProgress progress);

  /** The real one: the JDT prefilter. */
  StaticCandidatesFactory PREFILTER =
      (workspace, settings, log, progress) ->
          new PrefilterCandidates(workspace, settings.mavenClasspath(), log, progress);
}
