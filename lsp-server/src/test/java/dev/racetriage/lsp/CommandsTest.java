package dev.racetriage.lsp;

import static dev.racetriage.lsp.DiagnosticsTest.forField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import dev.racetriage.lsp.commands.Commands;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.queue.WorkItem;
import dev.racetriage.store.queue.WorkState;
import dev.racetriage.store.runs.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.ExecuteCommandParams;
import org.eclipse.lsp4j.ProgressParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.WorkDoneProgressBegin;
import org.eclipse.lsp4j.WorkDoneProgressEnd;
import org.eclipse.lsp4j.WorkDoneProgressNotification;
import org.eclipse.lsp4j.WorkDoneProgressReport;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandsTest {
  @TempDir Path project;

  private static Object execute(LspSession session, CodeAction action) throws Exception {
    return session.server.getWorkspaceService().executeCommand(new ExecuteCommandParams(
        action.getCommand().getCommand(), action.getCommand().getArguments()))
        .get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
  }

  private static CodeAction titled(List<CodeAction> actions, String title) {
    return actions.stream().filter(a -> a.getTitle().equals(title)).findFirst().orElseThrow();
  }

  @Test
  void markTrustedBenignWritesTheStoreAndTheSharedFileAndSilencesTheField() throws Exception {
    try (LspSession session = LspSession.start()) {
      JsonObject options = LspSession.testSettings();
      options.getAsJsonObject("racetriage").addProperty("author", "ana");
      session.initialize(Fixtures.mavenProject(project), options, LspSession.fullCapabilities());
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      PublishDiagnosticsParams published =
          session.client.awaitDiagnostics(uri, p -> forField(p, StoreFixture.INSTANCE).isPresent());
      Diagnostic diagnostic = forField(published, StoreFixture.INSTANCE).orElseThrow();

      CodeAction mark = titled(session.codeActions(uri, diagnostic.getRange(), List.of(diagnostic)),
          "Mark `instance` as trusted-benign");
      assertEquals(Commands.MARK_TRUSTED_BENIGN, mark.getCommand().getCommand());
      execute(session, mark);

      try (TriageStore store = StoreFixture.open(project)) {
        assertEquals("ana", store.marks().find(FieldKey.parse(StoreFixture.INSTANCE)).orElseThrow().author());
      }
      String shared = Files.readString(project.resolve(".racetriage/trusted-benign.json"));
      assertTrue(shared.contains(StoreFixture.INSTANCE), shared);
      session.client.awaitDiagnostics(uri, p -> forField(p, StoreFixture.INSTANCE).isEmpty());
    }
  }

  @Test
  void markingADestructiveRaceAsksFirstNamingTheEvidence() throws Exception {
    Fixtures.mavenProject(project);
    try (TriageStore store = StoreFixture.open(project)) {
      StoreFixture.destructiveInstance(store);
    }
    try (LspSession session = LspSession.start()) {
      session.initialize(project);
      ExecuteCommandParams mark = new ExecuteCommandParams(Commands.MARK_TRUSTED_BENIGN,
          List.of(StoreFixture.INSTANCE, "reviewed"));
      session.server.getWorkspaceService().executeCommand(mark).get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
      try (TriageStore store = StoreFixture.open(project)) {
        assertTrue(store.marks().find(FieldKey.parse(StoreFixture.INSTANCE)).isEmpty(), "dismissed: not marked");
      }
      assertTrue(session.client.asked.get(0).getMessage().contains("is destructive (1/2 runs failed under oldest"),
          session.client.asked.get(0).getMessage());

      session.client.answer = "Mark anyway (override)";
      session.server.getWorkspaceService().executeCommand(mark).get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
      try (TriageStore store = StoreFixture.open(project)) {
        assertTrue(store.marks().find(FieldKey.parse(StoreFixture.INSTANCE)).isPresent(), "confirmed: marked");
        assertEquals(dev.racetriage.store.marks.AuditAction.MARK_OVERRIDING_DESTRUCTIVE,
            store.marks().auditLog(FieldKey.parse(StoreFixture.INSTANCE)).get(0).action());
      }
    }
  }

  @Test
  void triageNowQueuesTheFieldForTheDaemon() throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(Fixtures.mavenProject(project));
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      PublishDiagnosticsParams published =
          session.client.awaitDiagnostics(uri, p -> forField(p, StoreFixture.INSTANCE).isPresent());
      Diagnostic diagnostic = forField(published, StoreFixture.INSTANCE).orElseThrow();
      execute(session, titled(session.codeActions(uri, diagnostic.getRange(), List.of(diagnostic)),
          "Triage `instance` now"));
      try (TriageStore store = StoreFixture.open(project)) {
        List<WorkItem> pending = store.queue().list(WorkState.PENDING, 10);
        assertEquals(List.of(StoreFixture.INSTANCE), pending.stream().map(i -> i.field().toString()).toList());
      }
    }
  }

  @Test
  void openDashboardShowsTheConfiguredUrl() throws Exception {
    try (LspSession session = LspSession.start()) {
      JsonObject options = LspSession.testSettings();
      options.getAsJsonObject("racetriage").addProperty("dashboardUrl", "http://127.0.0.1:7171");
      session.initialize(project, options, LspSession.fullCapabilities());
      Object result = session.server.getWorkspaceService()
          .executeCommand(new ExecuteCommandParams(Commands.OPEN_DASHBOARD, List.of()))
          .get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
      assertEquals("http://127.0.0.1:7171/", String.valueOf(result).replace("\"", ""));
      assertEquals("http://127.0.0.1:7171/", session.client.documentsShown.get(0).getUri());
      assertTrue(session.client.documentsShown.get(0).getExternal());
      // from a code lens: the race page of the field
      session.server.getWorkspaceService()
          .executeCommand(new ExecuteCommandParams(Commands.OPEN_DASHBOARD, List.of("demo.Outer$Inner.flag")))
          .get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
      assertEquals("http://127.0.0.1:7171/races/demo.Outer%24Inner.flag",
          session.client.documentsShown.get(1).getUri());
    }
  }

  @Test
  void unknownCommandsAndMissingArgumentsAreInvalidParams() throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(project);
      for (ExecuteCommandParams bad : List.of(new ExecuteCommandParams("racetriage.noSuchThing", List.of()),
          new ExecuteCommandParams(Commands.TRIAGE_NOW, List.of()))) {
        ExecutionException failure = assertThrows(ExecutionException.class,
            () -> session.server.getWorkspaceService().executeCommand(bad)
                .get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS));
        ResponseErrorException error = assertInstanceOf(ResponseErrorException.class, failure.getCause());
        assertEquals(ResponseErrorCode.InvalidParams.getValue(), error.getResponseError().getCode());
      }
    }
  }

  @Test
  void daemonWorkIsShownAsProgress() throws Exception {
    Fixtures.mavenProject(project);
    try (LspSession session = LspSession.start()) {
      session.initialize(project);
      try (TriageStore daemon = StoreFixture.open(project)) {
        Run run = daemon.runs().start("daemon", null, null);
        daemon.queue().enqueue(FieldKey.parse(StoreFixture.INSTANCE), "changed", 1);
        daemon.queue().enqueue(FieldKey.parse(StoreFixture.TASK), "changed", 1);
        WorkItem claimed = daemon.queue().claimNext("daemon-1", Duration.ofMinutes(5)).orElseThrow();

        // (the project's scan, started at initialized, is a progress of its own)
        ProgressParams begin = session.client.awaitProgressBegin("racetriage: triaging races");
        WorkDoneProgressBegin started = assertInstanceOf(WorkDoneProgressBegin.class, begin.getValue().getLeft());
        assertEquals(1, session.client.progressCreated.stream()
            .filter(created -> created.getToken().equals(begin.getToken())).count());
        // the poller may have seen the run before its items: the message catches up with a report
        String message = started.getMessage();
        while (!message.equals("0/2 — " + claimed.field())) {
          WorkDoneProgressNotification next =
              session.client.awaitProgress(begin.getToken()).getValue().getLeft();
          message = next instanceof WorkDoneProgressReport report ? report.getMessage() : message;
        }

        daemon.queue().complete(claimed.id(), "daemon-1");
        daemon.runs().finish(run.id(), dev.racetriage.store.runs.RunStatus.SUCCEEDED, "done", null);
        ProgressParams next;
        do {
          next = session.client.awaitProgress(begin.getToken());
        } while (!(next.getValue().getLeft() instanceof WorkDoneProgressEnd));
        assertEquals(begin.getToken(), next.getToken());
      }
    }
  }
}
