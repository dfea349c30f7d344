package dev.racetriage.cli;

import com.google.gson.JsonObject;
import dev.racetriage.lsp.LanguageServerLauncher;
import dev.racetriage.lsp.RacetriageLanguageServer;
import dev.racetriage.lsp.diagnostics.DiagnosticFactory;
import dev.racetriage.lsp.documents.DocumentUris;
import dev.racetriage.lsp.findings.FieldStatus;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.TextDocumentItem;
import org.eclipse.lsp4j.WorkspaceFolder;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageServer;

/**
 * What an editor shows for a file: the real language server ({@code racetriage lsp}'s, on the project's store) and an
 * LSP4J client talking JSON-RPC to it over pipes; the file is opened and the fields with a verdict diagnostic read
 * from what the server publishes.
 */
final class EditorView {
  private static final long WAIT_SECONDS = 60;
  /** The diagnostic codes of the store's verdicts ({@code racy} for a race not classified yet). */
  private static final Set<String> VERDICTS = Arrays.stream(FieldStatus.values()).filter(FieldStatus::isVerdict)
      .map(FieldStatus::id).collect(Collectors.toSet());

  private EditorView() {}

  /**
   * The fields with a verdict diagnostic (code = a verdict or {@code racy}, not a static candidate's pattern) in the first
   * publication for {@code file} that has one on {@code present}: a field every triage keeps, so the store's verdicts
   * have reached the document (the first publication may come before the server has opened the store).
   */
  static Set<String> verdictFields(Path project, Path file, String present) throws Exception {
    Pipe toServer = Pipe.open();
    Pipe toClient = Pipe.open();
    LanguageServerLauncher.Connection connection = LanguageServerLauncher.start(RacetriageLanguageServer.create(),
        Channels.newInputStream(toServer.source()), Channels.newOutputStream(toClient.sink()));
    BlockingQueue<PublishDiagnosticsParams> published = new LinkedBlockingQueue<>();
    Launcher<LanguageServer> launcher = LSPLauncher.createClientLauncher(new Client(published),
        Channels.newInputStream(toClient.source()), Channels.newOutputStream(toServer.sink()));
    launcher.startListening();
    LanguageServer server = launcher.getRemoteProxy();

    InitializeParams init = new InitializeParams();
    init.setProcessId((int) ProcessHandle.current().pid());
    init.setWorkspaceFolders(List.of(new WorkspaceFolder(DocumentUris.toUri(project), "project")));
    JsonObject settings = new JsonObject();
    settings.addProperty("mavenClasspath", false); // no Maven call, no class-path cache written under ~/.cache
    settings.addProperty("storePollMillis", 100);
    JsonObject options = new JsonObject();
    options.add("racetriage", settings);
    init.setInitializationOptions(options);
    init.setCapabilities(new ClientCapabilities());
    server.initialize(init).get(WAIT_SECONDS, TimeUnit.SECONDS);
    server.initialized(new InitializedParams());
    String uri = DocumentUris.toUri(file);
    server.getTextDocumentService().didOpen(new DidOpenTextDocumentParams(
        new TextDocumentItem(uri, "java", 1, Files.readString(file))));
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
      while (System.nanoTime() < deadline) {
        PublishDiagnosticsParams p = published.poll(1, TimeUnit.SECONDS);
        if (p == null || !p.getUri().equals(uri)) continue;
        Set<String> fields = p.getDiagnostics().stream()
            .filter(d -> d.getCode() != null && VERDICTS.contains(d.getCode().getLeft()))
            .map(d -> ((JsonObject) d.getData()).get(DiagnosticFactory.DATA_FIELD_KEY).getAsString())
            .collect(Collectors.toSet());
        if (fields.contains(present)) return fields;
      }
      throw new AssertionError("no verdict on " + present + " was published for " + file + " within " + WAIT_SECONDS
          + " s");
    } finally {
      server.shutdown().get(WAIT_SECONDS, TimeUnit.SECONDS);
      server.exit();
      connection.exitCode().get(WAIT_SECONDS, TimeUnit.SECONDS);
    }
  }

  /** The editor side: keeps the diagnostics, answers questions with no choice. */
  private record Client(BlockingQueue<PublishDiagnosticsParams> published) implements LanguageClient {
    @Override
    public void publishDiagnostics(PublishDiagnosticsParams diagnostics) {
      published.add(diagnostics);
    }

    @Override
    public void telemetryEvent(Object object) {}

    @Override
    public void showMessage(MessageParams message) {}

    @Override
    public CompletableFuture<MessageActionItem> showMessageRequest(ShowMessageRequestParams request) {
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public void logMessage(MessageParams message) {}
  }
}
