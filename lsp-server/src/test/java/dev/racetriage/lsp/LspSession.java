package dev.racetriage.lsp;

import com.google.gson.JsonObject;
import dev.racetriage.lsp.analysis.StaticCandidatesFactory;
import dev.racetriage.lsp.documents.DocumentUris;
import dev.racetriage.lsp.triage.StoreTriageDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionContext;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticsTagSupport;
import org.eclipse.lsp4j.DiagnosticTag;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.PublishDiagnosticsCapabilities;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.ShowDocumentCapabilities;
import org.eclipse.lsp4j.TextDocumentClientCapabilities;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.TextDocumentItem;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.VersionedTextDocumentIdentifier;
import org.eclipse.lsp4j.WindowClientCapabilities;
import org.eclipse.lsp4j.WorkspaceFolder;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageServer;

/**
 * A client connected to a real server over JSON-RPC on in-memory pipes: every request and notification is encoded,
 * framed and parsed exactly as between an editor and {@code racetriage lsp}.
 */
final class LspSession implements AutoCloseable {
  final RecordingClient client = new RecordingClient();
  final LanguageServer server;
  final Launcher<LanguageServer> launcher;
  final LanguageServerLauncher.Connection connection;
  private final OutputStream toServer;
  private int version = 1;

  private LspSession(RacetriageLanguageServer implementation) throws IOException {
    Pipe clientToServer = Pipe.open();
    Pipe serverToClient = Pipe.open();
    InputStream serverIn = Channels.newInputStream(clientToServer.source());
    OutputStream serverOut = Channels.newOutputStream(serverToClient.sink());
    this.toServer = Channels.newOutputStream(clientToServer.sink());
    this.connection = LanguageServerLauncher.start(implementation, serverIn, serverOut);
    this.launcher = LSPLauncher.createClientLauncher(client, Channels.newInputStream(serverToClient.source()), toServer);
    this.launcher.startListening();
    this.server = launcher.getRemoteProxy();
  }

  static LspSession start() throws IOException {
    return start(StaticCandidatesFactory.PREFILTER);
  }

  static LspSession start(StaticCandidatesFactory candidates) throws IOException {
    return new LspSession(new RacetriageLanguageServer(candidates, StoreTriageDatabase.OPENER));
  }

  /** Settings every test uses: no Maven call for the classpath, no debounce wait, fast store polling. */
  static JsonObject testSettings() {
    JsonObject settings = new JsonObject();
    settings.addProperty("mavenClasspath", false);
    settings.addProperty("debounceMillis", 0);
    settings.addProperty("storePollMillis", 100);
    JsonObject wrapper = new JsonObject();
    wrapper.add("racetriage", settings);
    return wrapper;
  }

  /** A client as capable as VS Code: related information, tags, progress, showDocument. */
  static ClientCapabilities fullCapabilities() {
    PublishDiagnosticsCapabilities publish = new PublishDiagnosticsCapabilities(true,
        new DiagnosticsTagSupport(List.of(DiagnosticTag.Unnecessary, DiagnosticTag.Deprecated)));
    TextDocumentClientCapabilities text = new TextDocumentClientCapabilities();
    text.setPublishDiagnostics(publish);
    WindowClientCapabilities window = new WindowClientCapabilities();
    window.setWorkDoneProgress(true);
    window.setShowDocument(new ShowDocumentCapabilities(true));
    ClientCapabilities caps = new ClientCapabilities();
    caps.setTextDocument(text);
    caps.setWindow(window);
    return caps;
  }

  InitializeResult initialize(Path root) throws Exception {
    return initialize(root, testSettings(), fullCapabilities());
  }

  InitializeResult initialize(Path root, Object options, ClientCapabilities caps) throws Exception {
    InitializeParams params = new InitializeParams();
    params.setProcessId((int) ProcessHandle.current().pid());
    if (root != null) {
      params.setWorkspaceFolders(List.of(new WorkspaceFolder(DocumentUris.toUri(root), "workspace")));
    }
    params.setInitializationOptions(options);
    params.setCapabilities(caps);
    InitializeResult result = server.initialize(params).get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
    server.initialized(new InitializedParams());
    return result;
  }

  /** Opens a file with the text it has on disk. */
  String open(Path file) throws IOException {
    return open(file, Files.readString(file));
  }

  String open(Path file, String text) {
    String uri = DocumentUris.toUri(file);
    server.getTextDocumentService().didOpen(new DidOpenTextDocumentParams(
        new TextDocumentItem(uri, file.toString().endsWith(".java") ? "java" : "plaintext", version, text)));
    return uri;
  }

  /** Sends a full-text change; returns the new version. */
  int replaceText(String uri, String text) {
    int next = ++version;
    server.getTextDocumentService().didChange(new DidChangeTextDocumentParams(
        new VersionedTextDocumentIdentifier(uri, next), List.of(new TextDocumentContentChangeEvent(text))));
    return next;
  }

  /** Sends an incremental change of one range; returns the new version. */
  int edit(String uri, Range range, String text) {
    int next = ++version;
    server.getTextDocumentService().didChange(new DidChangeTextDocumentParams(
        new VersionedTextDocumentIdentifier(uri, next), List.of(new TextDocumentContentChangeEvent(range, text))));
    return next;
  }

  List<CodeAction> codeActions(String uri, Range range, List<Diagnostic> diagnostics) throws Exception {
    CodeActionParams params = new CodeActionParams(new TextDocumentIdentifier(uri), range,
        new CodeActionContext(diagnostics));
    List<Either<Command, CodeAction>> actions =
        server.getTextDocumentService().codeAction(params).get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
    return actions.stream().filter(Either::isRight).map(Either::getRight).toList();
  }

  /** Writes bytes to the server's input as they are, bypassing the client's JSON-RPC encoder. */
  void writeRaw(String bytes) throws IOException {
    synchronized (toServer) {
      toServer.write(bytes.getBytes(StandardCharsets.UTF_8));
      toServer.flush();
    }
  }

  int shutdownAndExit() throws Exception {
    server.shutdown().get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
    server.exit();
    return connection.exitCode().get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
  }

  /** Applies LSP text edits to a text, last edit first (the edits of one action do not overlap). */
  static String apply(String text, List<TextEdit> edits) {
    String result = text;
    List<TextEdit> ordered = new java.util.ArrayList<>(edits);
    ordered.sort((a, b) -> {
      int line = Integer.compare(b.getRange().getStart().getLine(), a.getRange().getStart().getLine());
      return line != 0 ? line
          : Integer.compare(b.getRange().getStart().getCharacter(), a.getRange().getStart().getCharacter());
    });
    for (TextEdit edit : ordered) {
      var lines = dev.racetriage.lsp.documents.LineIndex.of(result);
      int start = lines.offset(edit.getRange().getStart());
      int end = lines.offset(edit.getRange().getEnd());
      result = result.substring(0, start) + edit.getNewText() + result.substring(end);
    }
    return result;
  }

  @Override
  public void close() {
    if (!connection.exitCode().isDone()) {
      try {
        server.shutdown().get(5, TimeUnit.SECONDS);
      } catch (Exception ignored) {
        // the test may have broken the connection on purpose
      }
      server.exit();
    }
    try {
      // the server has closed the database when exit completes: the test may delete its directory
      connection.exitCode().get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("the server did not stop after exit", e);
    }
    try {
      toServer.close();
    } catch (IOException ignored) {
      // already closed
    }
  }
}
