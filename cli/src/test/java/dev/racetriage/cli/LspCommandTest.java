package dev.racetriage.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.WorkspaceFolder;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code racetriage lsp}: a usage error, and a whole session over {@code --socket} ending with exit code 0. */
class LspCommandTest {

  private record Result(int exitCode, String err) {}

  private static Result run(String... args) {
    CommandLine cli = RacetriageCommand.commandLine();
    StringWriter err = new StringWriter();
    cli.setErr(new PrintWriter(err, true));
    cli.setOut(new PrintWriter(new StringWriter(), true));
    return new Result(cli.execute(args), err.toString());
  }

  /** A client that ignores what the server sends: this test is about the command, not the features. */
  private static final class QuietClient implements LanguageClient {
    @Override public void telemetryEvent(Object object) {}
    @Override public void publishDiagnostics(PublishDiagnosticsParams diagnostics) {}
    @Override public void showMessage(MessageParams messageParams) {}
    @Override public CompletableFuture<MessageActionItem> showMessageRequest(ShowMessageRequestParams p) {
      return CompletableFuture.completedFuture(null);
    }
    @Override public void logMessage(MessageParams message) {}
  }

  @Test
  void aPortOutOfRangeIsAUsageError() {
    Result result = run("lsp", "--socket", "70000");
    assertEquals(2, result.exitCode());
    assertTrue(result.err().startsWith("racetriage: --socket 70000 is not a TCP port"), result.err());
  }

  @Test
  void aSessionOverTheDebugSocketEndsWithExitCodeZero(@TempDir Path workspace) throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    CompletableFuture<Result> command = CompletableFuture.supplyAsync(() -> run("lsp", "--socket", "" + port));
    Socket socket = connect(port, command);
    try (socket) {
      Launcher<LanguageServer> launcher =
          LSPLauncher.createClientLauncher(new QuietClient(), socket.getInputStream(), socket.getOutputStream());
      launcher.startListening();
      LanguageServer server = launcher.getRemoteProxy();
      InitializeParams params = new InitializeParams();
      params.setWorkspaceFolders(List.of(new WorkspaceFolder(workspace.toUri().toString(), "empty")));
      InitializeResult result = server.initialize(params).get(60, TimeUnit.SECONDS);
      assertEquals("racetriage", result.getServerInfo().getName());
      server.initialized(new InitializedParams());
      server.shutdown().get(60, TimeUnit.SECONDS);
      server.exit();
      assertEquals(0, command.get(60, TimeUnit.SECONDS).exitCode());
    }
  }

  /** The command opens its port on another thread: retry until it listens (or the command ended). */
  private static Socket connect(int port, CompletableFuture<Result> command) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try {
        return new Socket(InetAddress.getLoopbackAddress(), port);
      } catch (java.net.ConnectException notYet) {
        if (command.isDone() || System.nanoTime() > deadline) {
          throw new AssertionError("racetriage lsp --socket " + port + " did not listen: "
              + (command.isDone() ? command.get().err() : "timeout"), notYet);
        }
        Thread.sleep(50);
      }
    }
  }
}
