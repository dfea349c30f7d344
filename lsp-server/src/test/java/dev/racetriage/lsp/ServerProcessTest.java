package dev.racetriage.lsp;

import static dev.racetriage.lsp.DiagnosticsTest.forField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.lsp.documents.DocumentUris;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.TextDocumentItem;
import org.eclipse.lsp4j.WorkspaceFolder;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server as a separate process on stdio, as an editor starts it: framing, stdout hygiene and exit codes. */
class ServerProcessTest {
  @TempDir Path project;

  private static Process startServer(Path log) throws Exception {
    return startServer(log, List.of());
  }

  /** As an editor starts it (the launcher script's VM options for {@code lsp}), with {@code extraOptions} after them. */
  private static Process startServer(Path log, List<String> extraOptions) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(LanguageServerMain.VM_OUTPUT_TO_STDERR);
    command.addAll(extraOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), LanguageServerMain.class.getName()));
    return new ProcessBuilder(command).redirectError(log.toFile()).start();
  }

  private static InitializeParams initializeParams(Path root) {
    InitializeParams params = new InitializeParams();
    params.setWorkspaceFolders(List.of(new WorkspaceFolder(DocumentUris.toUri(root), "demo")));
    params.setInitializationOptions(LspSession.testSettings());
    params.setCapabilities(LspSession.fullCapabilities());
    return params;
  }

  /** The server's threads (jcmd), so a hang seen only on a slow machine can be diagnosed from the report. */
  private static String threadDump(Process process) {
    try {
      Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
          Long.toString(process.pid()), "Thread.print").redirectErrorStream(true).start();
      String dump = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      jcmd.waitFor(30, TimeUnit.SECONDS);
      return dump;
    } catch (Exception e) {
      return "(no thread dump: " + e + ")";
    }
  }

  @Test
  void anEditorSessionOverStdioEndsWithExitCodeZero() throws Exception {
    editorSession(List.of());
  }

  /**
   * The JVM prints its own output ("CodeCache is full" and other warnings, -XX:+PrintCompilation) on stdout by
   * default, in the middle of whatever the server writes there; the launch's VM options send it to stderr. With
   * PrintCompilation the JVM prints hundreds of lines during the session, and the protocol must come through intact.
   */
  @Test
  void theJvmsOwnOutputDoesNotCorruptTheProtocolStream() throws Exception {
    String log = editorSession(List.of("-XX:+PrintCompilation"));
    assertTrue(log.contains("java.lang.String::"), "the JVM printed compilations (on stderr)");
  }

  /** Initialize, open a file, wait for its candidate, shut down; returns the server's stderr. */
  private String editorSession(List<String> jvmOptions) throws Exception {
    Fixtures.mavenProject(project);
    Path log = project.resolve("server.log");
    Process process = startServer(log, jvmOptions);
    try {
      RecordingClient client = new RecordingClient();
      OutputStream toServer = process.getOutputStream();
      Launcher<LanguageServer> launcher =
          LSPLauncher.createClientLauncher(client, process.getInputStream(), toServer);
      launcher.startListening();
      LanguageServer server = launcher.getRemoteProxy();

      // garbage before the first message: the server skips it and answers what follows
      toServer.write("Content-Length: 5\r\n\r\n{oops".getBytes(StandardCharsets.UTF_8));
      toServer.flush();
      server.initialize(initializeParams(project)).get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
      server.initialized(new InitializedParams());
      Path file = Fixtures.source(project, Fixtures.SINGLETON);
      String uri = DocumentUris.toUri(file);
      server.getTextDocumentService().didOpen(
          new DidOpenTextDocumentParams(new TextDocumentItem(uri, "java", 1, Files.readString(file))));
      try {
        client.awaitDiagnostics(uri, p -> forField(p, StoreFixture.INSTANCE).isPresent());
      } catch (AssertionError e) {
        throw new AssertionError(e.getMessage() + "\n--- server log ---\n" + Files.readString(log)
            + "\n--- window/logMessage ---\n" + client.logged.stream().map(m -> m.getMessage()).toList()
            + "\n--- server threads ---\n" + threadDump(process), e);
      }

      server.shutdown().get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
      server.exit();
      assertTrue(process.waitFor(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS), "the server exits after 'exit'");
      assertEquals(0, process.exitValue(), Files.readString(log));
      return Files.readString(log);
    } finally {
      process.destroyForcibly();
    }
  }

  @Test
  void exitWithoutShutdownOrAClosedPipeEndsWithExitCodeOne() throws Exception {
    Path log = project.resolve("server.log");
    Process exitOnly = startServer(log);
    Process closed = startServer(project.resolve("server2.log"));
    try {
      Launcher<LanguageServer> launcher = LSPLauncher.createClientLauncher(
          new RecordingClient(), exitOnly.getInputStream(), exitOnly.getOutputStream());
      launcher.startListening();
      launcher.getRemoteProxy().initialize(initializeParams(project)).get(RecordingClient.WAIT_SECONDS,
          TimeUnit.SECONDS);
      launcher.getRemoteProxy().exit();
      assertTrue(exitOnly.waitFor(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS));
      assertEquals(1, exitOnly.exitValue(), Files.readString(log));

      closed.getOutputStream().close(); // the editor died
      assertTrue(closed.waitFor(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS));
      assertEquals(1, closed.exitValue());
    } finally {
      exitOnly.destroyForcibly();
      closed.destroyForcibly();
    }
  }
}
