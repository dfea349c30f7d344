package dev.racetriage.lsp;

import dev.racetriage.lsp.analysis.StaticCandidates;
import dev.racetriage.lsp.analysis.StaticCandidatesFactory;
import dev.racetriage.lsp.analysis.WorkspaceCandidates;
import dev.racetriage.lsp.codeactions.CodeActionHandler;
import dev.racetriage.lsp.codelens.CodeLensHandler;
import dev.racetriage.lsp.commands.CommandHandler;
import dev.racetriage.lsp.commands.Commands;
import dev.racetriage.lsp.daemon.DaemonStarter;
import dev.racetriage.lsp.diagnostics.DiagnosticsScheduler;
import dev.racetriage.lsp.diagnostics.FileFindings;
import dev.racetriage.lsp.diagnostics.FileFindingsComputer;
import dev.racetriage.lsp.diagnostics.PublishedFindings;
import dev.racetriage.lsp.documents.DocumentUris;
import dev.racetriage.lsp.documents.OpenDocuments;
import dev.racetriage.lsp.hover.HoverHandler;
import dev.racetriage.lsp.lifecycle.ClientLog;
import dev.racetriage.lsp.lifecycle.ClientSupport;
import dev.racetriage.lsp.lifecycle.QuietExecutors;
import dev.racetriage.lsp.lifecycle.RequestRunner;
import dev.racetriage.lsp.lifecycle.ServerLifecycle;
import dev.racetriage.lsp.progress.DaemonProgressReporter;
import dev.racetriage.lsp.progress.WorkProgress;
import dev.racetriage.lsp.settings.ServerSettings;
import dev.racetriage.lsp.settings.SettingsReader;
import dev.racetriage.lsp.triage.StorePoller;
import dev.racetriage.lsp.triage.TriageConnection;
import dev.racetriage.lsp.triage.TriageDatabaseOpener;
import dev.racetriage.lsp.workspace.WorkspaceLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.CodeActionOptions;
import org.eclipse.lsp4j.CodeLensOptions;
import org.eclipse.lsp4j.DidChangeWatchedFilesRegistrationOptions;
import org.eclipse.lsp4j.ExecuteCommandOptions;
import org.eclipse.lsp4j.FileSystemWatcher;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.Registration;
import org.eclipse.lsp4j.RegistrationParams;
import org.eclipse.lsp4j.SaveOptions;
import org.eclipse.lsp4j.ServerCapabilities;
import org.eclipse.lsp4j.ServerInfo;
import org.eclipse.lsp4j.TextDocumentSyncKind;
import org.eclipse.lsp4j.TextDocumentSyncOptions;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageClientAware;
import org.eclipse.lsp4j.services.LanguageServer;
import org.eclipse.lsp4j.services.TextDocumentService;
import org.eclipse.lsp4j.services.WorkspaceService;

/**
 * The racetriage language server: the lifecycle and the wiring. Each request has its own handler
 * ({@code codeactions}, {@code hover}, {@code codelens}, {@code commands}); analysis runs on the debounced analysis
 * thread, requests on a small pool, never on the JSON-RPC reader thread.
 */
public final class RacetriageLanguageServer implements LanguageServer, LanguageClientAware {
  static final String VERSION = Optional.ofNullable(RacetriageLanguageServer.class.getPackage().getImplementationVersion())
      .orElse("dev");

  private final ServerLifecycle lifecycle = new ServerLifecycle();
  private final ClientLog log = new ClientLog();
  private final OpenDocuments documents = new OpenDocuments();
  private final AtomicReference<ServerSettings> settings = new AtomicReference<>(ServerSettings.defaults());
  private final AtomicReference<ClientSupport> clientSupport = new AtomicReference<>(ClientSupport.from(null));
  private final AtomicReference<WorkspaceLayout> workspace = new AtomicReference<>();
  private final StaticCandidatesFactory staticCandidatesFactory;
  private final ExecutorService requests = QuietExecutors.fixed("racetriage-request", 2);
  private final ScheduledExecutorService analysis = QuietExecutors.scheduled("racetriage-analysis");
  private final RequestRunner runner = new RequestRunner(lifecycle, requests, log);
  private final TriageConnection triage;
  private final DaemonStarter daemon = new DaemonStarter(log);
  private final WorkspaceCandidates staticCandidates = new WorkspaceCandidates(analysis);
  private final PublishedFindings published = new PublishedFindings();
  private final DiagnosticsScheduler diagnostics;
  private final StorePoller poller;
  private final RacetriageTextDocumentService textDocuments;
  private final RacetriageWorkspaceService workspaceService;
  private volatile LanguageClient client;

  public RacetriageLanguageServer(
      StaticCandidatesFactory staticCandidatesFactory, TriageDatabaseOpener databaseOpener) {
    this.staticCandidatesFactory = staticCandidatesFactory;
    this.triage = new TriageConnection(databaseOpener, log);
    FileFindingsComputer computer = new FileFindingsComputer(staticCandidates, triage,
        () -> settings.get().staticCandidates(), this::refresh);
    this.diagnostics = new DiagnosticsScheduler(documents, computer, analysis, published, this::published,
        () -> client, clientSupport::get, () -> settings.get().debounceMillis(), log);
    DaemonProgressReporter progress = new DaemonProgressReporter(() -> client, clientSupport::get);
    this.poller = new StorePoller(triage, this::storeChanged, progress::update, log);
    CommandHandler commands =
        new CommandHandler(triage, settings::get, () -> client, clientSupport::get, this::refresh, log);
    this.textDocuments = new RacetriageTextDocumentService(documents, diagnostics, staticCandidates, runner,
        new CodeActionHandler(documents, published, log), new HoverHandler(documents, published, log),
        new CodeLensHandler(documents, published, log), log);
    this.workspaceService = new RacetriageWorkspaceService(runner, commands, this::applySettings,
        staticCandidates, this::refresh, this::syncSharedMarks, log);
  }

  /** The server with its real parts: the JDT prefilter and the project's triage store. */
  public static RacetriageLanguageServer create() {
    return new RacetriageLanguageServer(StaticCandidatesFactory.PREFILTER,
        dev.racetriage.lsp.triage.StoreTriageDatabase.OPENER);
  }

  @Override
  public void connect(LanguageClient languageClient) {
    this.client = languageClient;
    log.connect(languageClient);
  }

  @Override
  public CompletableFuture<InitializeResult> initialize(InitializeParams params) {
    clientSupport.set(ClientSupport.from(params.getCapabilities()));
    settings.set(SettingsReader.read(params.getInitializationOptions(), ServerSettings.defaults(), log::warn));
    Optional<Path> root = rootOf(params);
    if (root.isPresent()) {
      WorkspaceLayout layout = WorkspaceLayout.detect(root.get());
      workspace.set(layout);
      triage.configure(settings.get().databaseFor(layout.root()), layout.root());
      staticCandidates.use(createCandidates(layout));
    } else {
      staticCandidates.use(createCandidates(WorkspaceLayout.none()));
    }
    lifecycle.initialized();
    return CompletableFuture.completedFuture(new InitializeResult(capabilities(), new ServerInfo("racetriage", VERSION)));
  }

  static ServerCapabilities capabilities() {
    ServerCapabilities caps = new ServerCapabilities();
    TextDocumentSyncOptions sync = new TextDocumentSyncOptions();
    sync.setOpenClose(true);
    sync.setChange(TextDocumentSyncKind.Incremental);
    sync.setSave(new SaveOptions(false));
    caps.setTextDocumentSync(sync);
    caps.setHoverProvider(true);
    caps.setCodeActionProvider(new CodeActionOptions(List.of(CodeActionKind.QuickFix)));
    caps.setCodeLensProvider(new CodeLensOptions(false));
    caps.setExecuteCommandProvider(new ExecuteCommandOptions(Commands.ALL));
    return caps;
  }

  private static Optional<Path> rootOf(InitializeParams params) {
    if (params.getWorkspaceFolders() != null && !params.getWorkspaceFolders().isEmpty()) {
      return Optional.of(DocumentUris.toPath(params.getWorkspaceFolders().get(0).getUri()));
    }
    @SuppressWarnings("deprecation")
    String rootUri = params.getRootUri();
    @SuppressWarnings("deprecation")
    String rootPath = params.getRootPath();
    if (rootUri != null) {
      return Optional.of(DocumentUris.toPath(rootUri));
    }
    return Optional.ofNullable(rootPath).map(Path::of);
  }

  private StaticCandidates createCandidates(WorkspaceLayout layout) {
    try {
      return staticCandidatesFactory.create(layout, settings.get(), log, new WorkProgress(() -> client, clientSupport::get));
    } catch (RuntimeException | LinkageError e) {
      log.error("racetriage: the static prefilter could not be set up for " + layout.root()
          + "; only verdicts from the store are shown", e);
      return StaticCandidates.NONE;
    }
  }

  @Override
  public void initialized(InitializedParams params) {
    WorkspaceLayout layout = workspace.get();
    if (layout == null) {
      log.showOnce("no-workspace", MessageType.Info, "racetriage: no workspace folder is open; open files are"
          + " analysed one by one, and verdicts need a project folder (with its .racetriage/triage.db)");
    } else if (!layout.maven()) {
      log.showOnce("not-maven", MessageType.Info, "racetriage: " + layout.root() + " is not a Maven project (no"
          + " pom.xml): static candidates are shown, but the daemon cannot triage it");
    }
    registerWatchers();
    if (settings.get().staticCandidates()) {
      // the project's scan starts now, while the user is still finding a file to open
      staticCandidates.prepare(this::refresh);
    }
    poller.start(settings.get().storePollMillis());
    startDaemonIfAsked();
  }

  private void registerWatchers() {
    LanguageClient c = client;
    if (c == null || !clientSupport.get().watchedFilesRegistration()) {
      return;
    }
    DidChangeWatchedFilesRegistrationOptions options = new DidChangeWatchedFilesRegistrationOptions(List.of(
        new FileSystemWatcher(Either.forLeft("**/*.java")),
        new FileSystemWatcher(Either.forLeft("**/.racetriage/*"))));
    c.registerCapability(new RegistrationParams(List.of(
        new Registration("racetriage-watched-files", "workspace/didChangeWatchedFiles", options))));
  }

  private void startDaemonIfAsked() {
    WorkspaceLayout layout = workspace.get();
    ServerSettings current = settings.get();
    if (layout != null && current.startDaemon()) {
      daemon.start(current.daemonCommand(), layout.root(), layout.root().resolve(".racetriage").resolve("daemon.log"));
    }
  }

  private void applySettings(Object json) {
    ServerSettings before = settings.get();
    ServerSettings after = SettingsReader.read(json, before, log::warn);
    settings.set(after);
    WorkspaceLayout layout = workspace.get();
    if (layout != null) {
      triage.configure(after.databaseFor(layout.root()), layout.root());
    }
    if (after.storePollMillis() != before.storePollMillis() && lifecycle.state() == ServerLifecycle.State.INITIALIZED) {
      poller.start(after.storePollMillis());
    }
    if (after.startDaemon() && !before.startDaemon()) {
      startDaemonIfAsked();
    }
    refresh();
  }

  private void storeChanged() {
    diagnostics.refreshAll();
    refreshCodeLenses();
  }

  /** Lenses are answered from what was published: when that changes them, the client is asked to ask again. */
  private void published(FileFindings before, FileFindings after) {
    if (CodeLensHandler.changed(before, after)) {
      refreshCodeLenses();
    }
  }

  private void refreshCodeLenses() {
    LanguageClient c = client;
    if (c != null && clientSupport.get().codeLensRefresh()) {
      c.refreshCodeLenses();
    }
  }

  private void refresh() {
    diagnostics.refreshAll();
  }

  /** A write to the store, so not on the JSON-RPC thread that delivered the file event. */
  private void syncSharedMarks() {
    try {
      requests.execute(() -> {
        triage.read(db -> {
          db.syncSharedMarks();
          return Boolean.TRUE;
        });
        diagnostics.refreshAll();
      });
    } catch (java.util.concurrent.RejectedExecutionException shuttingDown) {
      // nothing to keep in line any more
    }
  }

  @Override
  public CompletableFuture<Object> shutdown() {
    lifecycle.shutdown();
    stopWork();
    return CompletableFuture.completedFuture(null);
  }

  private void stopWork() {
    poller.close();
    diagnostics.close();
    daemon.close();
    triage.close();
    analysis.shutdown();
    requests.shutdown();
  }

  @Override
  public void exit() {
    stopWork();
    lifecycle.exit();
  }

  /** The server's progress is not cancellable; a client that cancels anyway is ignored, not failed. */
  @Override
  public void cancelProgress(org.eclipse.lsp4j.WorkDoneProgressCancelParams params) {
    log.info("racetriage: the client asked to cancel progress " + params.getToken() + "; it cannot be cancelled");
  }

  @Override
  public TextDocumentService getTextDocumentService() {
    return textDocuments;
  }

  @Override
  public WorkspaceService getWorkspaceService() {
    return workspaceService;
  }

  public ServerLifecycle lifecycle() {
    return lifecycle;
  }

  /** Polls the store now instead of at the next tick (tests, and the refresh after a watched file changed). */
  public void pollStoreNow() {
    poller.pollNow();
  }
}
