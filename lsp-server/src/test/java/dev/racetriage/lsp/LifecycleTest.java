package dev.racetriage.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.lsp.commands.Commands;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.TextDocumentSyncKind;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LifecycleTest {
  @TempDir Path project;

  @Test
  void initializeAnnouncesWhatTheServerDoes() throws Exception {
    try (LspSession session = LspSession.start()) {
      InitializeResult result = session.initialize(Fixtures.mavenProject(project));
      var caps = result.getCapabilities();
      assertEquals("racetriage", result.getServerInfo().getName());
      assertEquals(TextDocumentSyncKind.Incremental, caps.getTextDocumentSync().getRight().getChange());
      assertTrue(caps.getTextDocumentSync().getRight().getOpenClose());
      assertTrue(caps.getHoverProvider().getLeft());
      assertEquals(java.util.List.of("quickfix"), caps.getCodeActionProvider().getRight().getCodeActionKinds());
      assertEquals(Commands.ALL, caps.getExecuteCommandProvider().getCommands());
      assertTrue(caps.getCodeLensProvider() != null);
      assertEquals(0, session.shutdownAndExit(), "exit after shutdown is exit code 0");
    }
  }

  @Test
  void exitWithoutShutdownIsExitCodeOne() throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(project);
      session.server.exit();
      assertEquals(1, session.connection.exitCode().get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS));
    }
  }

  @Test
  void requestBeforeInitializeIsServerNotInitialized() throws Exception {
    try (LspSession session = LspSession.start()) {
      var hover = session.server.getTextDocumentService().hover(
          new HoverParams(new TextDocumentIdentifier(project.resolve("A.java").toUri().toString()), new Position(0, 0)));
      ExecutionException failure = assertThrows(ExecutionException.class,
          () -> hover.get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS));
      ResponseErrorException error = assertInstanceOf(ResponseErrorException.class, failure.getCause());
      assertEquals(ResponseErrorCode.ServerNotInitialized.getValue(), error.getResponseError().getCode());
    }
  }

  @Test
  void requestAfterShutdownIsInvalidAndExitStillWorks() throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(project);
      session.server.shutdown().get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
      var hover = session.server.getTextDocumentService().hover(
          new HoverParams(new TextDocumentIdentifier(project.resolve("A.java").toUri().toString()), new Position(0, 0)));
      ExecutionException failure = assertThrows(ExecutionException.class,
          () -> hover.get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS));
      ResponseErrorException error = assertInstanceOf(ResponseErrorException.class, failure.getCause());
      assertEquals(ResponseErrorCode.InvalidRequest.getValue(), error.getResponseError().getCode());
      session.server.exit();
      assertEquals(0, session.connection.exitCode().get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS));
    }
  }

  @Test
  void clientClosingTheStreamEndsTheServer() throws Exception {
    LspSession session = LspSession.start();
    session.initialize(project);
    session.close(); // shutdown + exit
    assertEquals(0, session.connection.exitCode().get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS));
  }
}
