package dev.racetriage.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import dev.racetriage.lsp.documents.DocumentUris;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.CodeLensParams;
import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RobustnessTest {
  @TempDir Path project;

  private static Hover hover(LspSession session, String uri) throws Exception {
    return session.server.getTextDocumentService()
        .hover(new HoverParams(new TextDocumentIdentifier(uri), new Position(4, 36)))
        .get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
  }

  @Test
  void malformedMessagesAreSkippedAndTheServerKeepsAnswering() throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(Fixtures.mavenProject(project));
      session.writeRaw("Content-Length: 5\r\n\r\n{oops");
      session.writeRaw("Content-Length: 2\r\n\r\n[]");
      session.writeRaw("Content-Length: 9\r\nContent-Type: nonsense\r\n\r\nnot json!");
      // declares 20 bytes, has 11: the reader eats "Content-L" of the next message, which is lost, and resyncs
      session.writeRaw("Content-Length: 20\r\n\r\n{\"short\":1}");
      session.writeRaw("Content-Length: 2\r\n\r\n{}");
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      session.client.awaitDiagnostics(uri, p -> !p.getDiagnostics().isEmpty());
      assertTrue(hover(session, uri).getContents().getRight().getValue().contains("double-checked-locking"));
      assertEquals(0, session.shutdownAndExit());
    }
  }

  @Test
  void requestsWithWrongParametersGetAnErrorResponse() throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(project);
      CompletableFuture<Object> wrong = session.launcher.getRemoteEndpoint()
          .request("textDocument/hover", List.of("not", "a", "hover"));
      ExecutionException failure = assertThrows(ExecutionException.class,
          () -> wrong.get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS));
      assertInstanceOf(ResponseErrorException.class, failure.getCause());
      CompletableFuture<Object> unknown = session.launcher.getRemoteEndpoint().request("racetriage/nothing", null);
      ExecutionException notFound = assertThrows(ExecutionException.class,
          () -> unknown.get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS));
      assertEquals(ResponseErrorCode.MethodNotFound.getValue(),
          ((ResponseErrorException) notFound.getCause()).getResponseError().getCode());
      assertEquals(0, session.shutdownAndExit());
    }
  }

  @Test
  void requestsForUnopenedOrNonJavaFilesGetEmptyResults() throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(Fixtures.mavenProject(project));
      String unopened = DocumentUris.toUri(Fixtures.source(project, Fixtures.SINGLETON));
      assertNull(hover(session, unopened));
      assertEquals(List.of(), session.codeActions(unopened, new Range(new Position(4, 36), new Position(4, 36)),
          List.of()));
      assertEquals(List.of(), session.server.getTextDocumentService()
          .codeLens(new CodeLensParams(new TextDocumentIdentifier(unopened)))
          .get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS));
      assertTrue(session.client.logged.stream().anyMatch(m -> m.getMessage().contains("which is not open")));

      Path notes = project.resolve("NOTES.md");
      Files.writeString(notes, "private static Foo instance;");
      String notesUri = session.open(notes, Files.readString(notes));
      assertNull(hover(session, notesUri));
      assertEquals(List.of(), session.codeActions(notesUri, new Range(new Position(0, 0), new Position(0, 5)),
          List.of()));
      // an untitled buffer, which has no file at all
      session.open(Path.of("/nonexistent/untitled/Scratch.java"), "class Scratch { int x; }");
      assertEquals(0, session.shutdownAndExit());
    }
  }

  @Test
  void aDaemonThatCannotStartIsReportedOnceAndTheServerCarriesOn() throws Exception {
    try (LspSession session = LspSession.start()) {
      JsonObject options = LspSession.testSettings();
      options.getAsJsonObject("racetriage").addProperty("startDaemon", true);
      options.getAsJsonObject("racetriage").addProperty("daemonCommand", "/nonexistent/bin/racetriage daemon");
      session.initialize(Fixtures.mavenProject(project), options, LspSession.fullCapabilities());
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      session.client.awaitDiagnostics(uri, p -> !p.getDiagnostics().isEmpty());
      assertEquals(1, session.client.shown.stream()
          .filter(m -> m.getType() == MessageType.Warning && m.getMessage().contains("could not start the daemon"))
          .count(), session.client.shown.toString());
      assertEquals(0, session.shutdownAndExit());
    }
  }

  @Test
  void aDaemonThatStopsAtOnceIsReportedWithItsLastLine() throws Exception {
    try (LspSession session = LspSession.start()) {
      JsonObject options = LspSession.testSettings();
      options.getAsJsonObject("racetriage").addProperty("startDaemon", true);
      com.google.gson.JsonArray command = new com.google.gson.JsonArray();
      for (String part : List.of("sh", "-c", "echo starting; echo 'racetriage daemon is not built yet' >&2; exit 2")) {
        command.add(part);
      }
      options.getAsJsonObject("racetriage").add("daemonCommand", command);
      session.initialize(Fixtures.mavenProject(project), options, LspSession.fullCapabilities());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RecordingClient.WAIT_SECONDS);
      while (session.client.shown.stream().noneMatch(m -> m.getMessage().contains("the daemon stopped"))
          && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      String message = session.client.shown.stream().map(m -> m.getMessage())
          .filter(m -> m.contains("the daemon stopped")).findFirst().orElseThrow();
      assertTrue(message.contains("exit code 2: racetriage daemon is not built yet"), message);
      assertTrue(Files.readString(project.resolve(".racetriage/daemon.log")).contains("starting"));
      assertEquals(0, session.shutdownAndExit());
    }
  }

  @Test
  void settingsChangeAppliesAndBadValuesKeepThePreviousOne() throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(Fixtures.mavenProject(project));
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      session.client.awaitDiagnostics(uri, p -> !p.getDiagnostics().isEmpty());

      JsonObject off = new JsonObject();
      off.addProperty("staticCandidates", false);
      off.addProperty("debounceMillis", "soon");
      JsonObject settings = new JsonObject();
      settings.add("racetriage", off);
      session.server.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(settings));
      session.client.awaitDiagnostics(uri, p -> p.getDiagnostics().isEmpty());
      assertTrue(session.client.logged.stream()
          .anyMatch(m -> m.getMessage().contains("racetriage.debounceMillis must be a number")));
    }
  }
}
