package dev.racetriage.lsp;

import dev.racetriage.lsp.analysis.StaticCandidates;
import dev.racetriage.lsp.commands.CommandHandler;
import dev.racetriage.lsp.documents.DocumentUris;
import dev.racetriage.lsp.lifecycle.RequestRunner;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.DidChangeWatchedFilesParams;
import org.eclipse.lsp4j.ExecuteCommandParams;
import org.eclipse.lsp4j.FileEvent;
import org.eclipse.lsp4j.services.WorkspaceService;

/** Settings, watched files and commands. */
final class RacetriageWorkspaceService implements WorkspaceService {
  private final RequestRunner runner;
  private final CommandHandler commands;
  private final Consumer<Object> settings;
  private final StaticCandidates staticCandidates;
  private final Runnable refresh;
  private final Runnable sharedMarksChanged;
  private final dev.racetriage.lsp.lifecycle.ClientLog log;

  RacetriageWorkspaceService(RequestRunner runner, CommandHandler commands, Consumer<Object> settings,
      StaticCandidates staticCandidates, Runnable refresh, Runnable sharedMarksChanged,
      dev.racetriage.lsp.lifecycle.ClientLog log) {
    this.runner = runner;
    this.commands = commands;
    this.settings = settings;
    this.staticCandidates = staticCandidates;
    this.refresh = refresh;
    this.sharedMarksChanged = sharedMarksChanged;
    this.log = log;
  }

  @Override
  public CompletableFuture<Object> executeCommand(ExecuteCommandParams params) {
    return runner.run("workspace/executeCommand " + params.getCommand(), cancel -> commands.execute(params));
  }

  @Override
  public void didChangeConfiguration(DidChangeConfigurationParams params) {
    settings.accept(params.getSettings());
  }

  /**
   * A Java file changed on disk (another tool, a branch switch): the prefilter forgets what it learned from it. The
   * team's marks file changed (a pull): the store takes its marks in. A database change shows at the next store
   * poll; re-publishing now makes it immediate.
   */
  @Override
  public void didChangeWatchedFiles(DidChangeWatchedFilesParams params) {
    boolean marks = false;
    for (FileEvent event : params.getChanges()) {
      if (event.getUri().endsWith(".java")) {
        staticCandidates.fileChanged(DocumentUris.toPath(event.getUri()));
      }
      marks |= event.getUri().endsWith("/" + SHARED_MARKS_FILE);
    }
    if (marks) {
      sharedMarksChanged.run();
    }
    refresh.run();
  }

  /** One workspace folder per server (its database, its prefilter): further folders need a server of their own. */
  @Override
  public void didChangeWorkspaceFolders(org.eclipse.lsp4j.DidChangeWorkspaceFoldersParams params) {
    log.info("racetriage: workspace folders changed; this server keeps serving the folder it was started with");
  }

  static final String SHARED_MARKS_FILE = ".racetriage/trusted-benign.json";
}
