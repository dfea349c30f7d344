package dev.racetriage.lsp;

import static dev.racetriage.lsp.DiagnosticsTest.forField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.CodeLens;
import org.eclipse.lsp4j.CodeLensParams;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.DiagnosticTag;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreVerdictsTest {
  @TempDir Path project;

  private static DiagnosticSeverity severity(PublishDiagnosticsParams p, String key) {
    return forField(p, key).map(Diagnostic::getSeverity).orElse(null);
  }

  @Test
  void destructiveVerdictIsAnErrorWithItsEvidence() throws Exception {
    Fixtures.mavenProject(project);
    try (TriageStore store = StoreFixture.open(project)) {
      StoreFixture.destructiveInstance(store);
    }
    try (LspSession session = LspSession.start()) {
      session.initialize(project);
      Path file = Fixtures.source(project, Fixtures.SINGLETON);
      String uri = session.open(file);
      PublishDiagnosticsParams published = session.client.awaitDiagnostics(uri,
          p -> severity(p, StoreFixture.INSTANCE) == DiagnosticSeverity.Error);
      Diagnostic error = forField(published, StoreFixture.INSTANCE).orElseThrow();
      assertEquals("destructive", error.getCode().getLeft());
      assertTrue(error.getMessage().contains("1/2 runs failed under oldest"), error.getMessage());
      assertTrue(error.getMessage().contains("NullPointerException: slots is null"), error.getMessage());
      // the agent's accesses, located in the project from "LazySingletonBad.java" and the stack
      assertEquals(List.of(9, 12), error.getRelatedInformation().stream()
          .map(r -> r.getLocation().getRange().getStart().getLine()).toList());
      assertTrue(error.getRelatedInformation().stream()
          .allMatch(r -> r.getLocation().getUri().equals(uri)));

      Hover hover = session.server.getTextDocumentService().hover(new HoverParams(new TextDocumentIdentifier(uri),
          error.getRange().getStart())).get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
      String markdown = hover.getContents().getRight().getValue();
      assertTrue(markdown.contains("**racetriage: destructive**"), markdown);
      assertTrue(markdown.contains("| heuristic | runs | failures | failure rate | stale reads | stale-read rate | "
          + "median ms |"), markdown);
      assertTrue(markdown.contains("| oldest | 2 | 1 | 50% | 8 | 40.0% | 120 |"), markdown);
      assertTrue(markdown.contains("| sc | 2 | 0 | 0% | 0 | 0.0% | 120 |"), markdown);
      assertTrue(markdown.contains("racetriage replay " + StoreFixture.INSTANCE), "replay with racetriage: " + markdown);
      assertTrue(markdown.contains("First failure:\n\n```\njava.lang.NullPointerException: slots is null"), markdown);
      assertTrue(markdown.contains("--seed 7"), markdown);
      assertTrue(!markdown.contains("Test-code race") && !error.getMessage().contains("test code"),
          "a race in src/main is the product's: " + markdown);

      // hovering on an access line (the write, line 13) shows the same finding
      Hover onAccess = session.server.getTextDocumentService().hover(new HoverParams(new TextDocumentIdentifier(uri),
          new org.eclipse.lsp4j.Position(12, 12))).get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
      assertTrue(onAccess.getContents().getRight().getValue().contains("destructive"));

      List<? extends CodeLens> lenses = session.server.getTextDocumentService()
          .codeLens(new CodeLensParams(new TextDocumentIdentifier(uri)))
          .get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
      assertEquals(1, lenses.size());
      assertEquals("racetriage: destructive (1/2 adversarial trials failed)", lenses.get(0).getCommand().getTitle());
      assertEquals(error.getRange().getStart().getLine(), lenses.get(0).getRange().getStart().getLine());
    }
  }

  @Test
  void aRaceWhoseEveryAccessIsInTestCodeSaysSoInTheDiagnosticAndTheHover() throws Exception {
    Fixtures.mavenProject(project);
    // the worker as a test's own helper: src/test/java, not the product
    Path helper = project.resolve("src/test/java").resolve(Fixtures.WORKER);
    Files.createDirectories(helper.getParent());
    Files.move(Fixtures.source(project, Fixtures.WORKER), helper);
    try (TriageStore store = StoreFixture.open(project)) {
      StoreFixture.race(store, StoreFixture.TASK, 16, 10, "WorkerBad.java");
      store.verdicts().set(FieldKey.parse(StoreFixture.TASK), Verdict.QOS, Evidence.of("oldest 2.1x slower"), null);
    }
    try (LspSession session = LspSession.start()) {
      session.initialize(project);
      String uri = session.open(helper);
      PublishDiagnosticsParams published = session.client.awaitDiagnostics(uri,
          p -> severity(p, StoreFixture.TASK) == DiagnosticSeverity.Warning);
      Diagnostic qos = forField(published, StoreFixture.TASK).orElseThrow();
      assertTrue(qos.getMessage().contains("(in test code)"), qos.getMessage());
      String markdown = session.server.getTextDocumentService().hover(new HoverParams(new TextDocumentIdentifier(uri),
          qos.getRange().getStart())).get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS)
          .getContents().getRight().getValue();
      assertTrue(markdown.contains("_Test-code race_: every access is under `src/test`"), markdown);
    }
  }

  @Test
  void eachVerdictHasItsSeverityAndTrustedBenignHasNone() throws Exception {
    Fixtures.mavenProject(project);
    try (TriageStore store = StoreFixture.open(project)) {
      StoreFixture.workerVerdicts(store);
    }
    try (LspSession session = LspSession.start()) {
      session.initialize(project);
      String uri = session.open(Fixtures.source(project, Fixtures.WORKER));
      PublishDiagnosticsParams published = session.client.awaitDiagnostics(uri,
          p -> severity(p, StoreFixture.TASK) == DiagnosticSeverity.Warning);
      assertEquals("qos", forField(published, StoreFixture.TASK).orElseThrow().getCode().getLeft());
      Diagnostic benign = forField(published, StoreFixture.DONE).orElseThrow();
      assertEquals(DiagnosticSeverity.Hint, benign.getSeverity());
      assertEquals(List.of(DiagnosticTag.Unnecessary), benign.getTags());
      // running is a busy-wait candidate for the prefilter, but the team marked it trusted-benign
      assertTrue(forField(published, StoreFixture.RUNNING).isEmpty(), published.getDiagnostics().toString());
    }
  }

  @Test
  void newVerdictsReachAnOpenDocument() throws Exception {
    Fixtures.mavenProject(project);
    try (TriageStore store = StoreFixture.open(project)) {
      StoreFixture.race(store, StoreFixture.INSTANCE, 10, 13, "LazySingletonBad.java");
    }
    try (LspSession session = LspSession.start()) {
      session.initialize(project);
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      session.client.awaitDiagnostics(uri, p -> severity(p, StoreFixture.INSTANCE) == DiagnosticSeverity.Warning
          && "racy".equals(forField(p, StoreFixture.INSTANCE).get().getCode().getLeft()));
      // the daemon (another store handle, as another process would have) decides
      try (TriageStore daemon = StoreFixture.open(project)) {
        daemon.verdicts().set(FieldKey.parse(StoreFixture.INSTANCE), Verdict.DESTRUCTIVE,
            Evidence.of("2/20 runs failed under oldest"), null);
      }
      session.client.awaitDiagnostics(uri, p -> severity(p, StoreFixture.INSTANCE) == DiagnosticSeverity.Error);
    }
  }

  /** Lenses answer from what was published; a client asking before the first analysis is told to ask again. */
  @Test
  void aCodeLensAskedBeforeTheVerdictWasPublishedIsRefreshedOnceItIs() throws Exception {
    Fixtures.mavenProject(project);
    try (TriageStore store = StoreFixture.open(project)) {
      StoreFixture.destructiveInstance(store);
    }
    try (LspSession session = LspSession.start()) {
      org.eclipse.lsp4j.ClientCapabilities caps = LspSession.fullCapabilities();
      org.eclipse.lsp4j.WorkspaceClientCapabilities workspace = new org.eclipse.lsp4j.WorkspaceClientCapabilities();
      workspace.setCodeLens(new org.eclipse.lsp4j.CodeLensWorkspaceCapabilities(true));
      caps.setWorkspace(workspace);
      session.initialize(project, LspSession.testSettings(), caps);
      assertTrue(session.client.codeLensRefreshes.tryAcquire(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS),
          "the first poll found the store's data (the store is not written again: no other refresh from it)");
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      CodeLensParams params = new CodeLensParams(new TextDocumentIdentifier(uri));
      session.server.getTextDocumentService().codeLens(params)
          .get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS); // none or one, as far as the analysis has come

      session.client.awaitDiagnostics(uri, p -> severity(p, StoreFixture.INSTANCE) == DiagnosticSeverity.Error);
      assertTrue(session.client.codeLensRefreshes.tryAcquire(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS),
          "the publication that brought the verdict asked the client to refresh its lenses");
      List<? extends CodeLens> lenses = session.server.getTextDocumentService().codeLens(params)
          .get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
      assertEquals(List.of("racetriage: destructive (1/2 adversarial trials failed)"),
          lenses.stream().map(l -> l.getCommand().getTitle()).toList());
    }
  }

  @Test
  void aMissingDatabaseIsNoVerdictsWithoutComplaintAndIsNotCreatedByReading() throws Exception {
    Fixtures.mavenProject(project);
    Path db = TriageStore.defaultDatabase(project);
    try (LspSession session = LspSession.start()) {
      session.initialize(project);
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      PublishDiagnosticsParams published = session.client.awaitDiagnostics(uri,
          p -> forField(p, StoreFixture.INSTANCE).isPresent());
      assertEquals(DiagnosticSeverity.Information, severity(published, StoreFixture.INSTANCE));
      session.server.getTextDocumentService()
          .hover(new HoverParams(new TextDocumentIdentifier(uri), new org.eclipse.lsp4j.Position(4, 36)))
          .get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
      assertTrue(session.client.shown.isEmpty(), "no daemon has run yet: nothing to warn about, "
          + session.client.shown);
      assertTrue(Files.notExists(db), "reading never creates the database");
    }
  }

  @Test
  void anUnreadableDatabaseIsReportedOnceAndStaticCandidatesRemain() throws Exception {
    Fixtures.mavenProject(project);
    Path db = TriageStore.defaultDatabase(project);
    Files.createDirectories(db.getParent());
    Files.writeString(db, "this is not an SQLite database, and the server must not overwrite it");
    try (LspSession session = LspSession.start()) {
      session.initialize(project);
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      PublishDiagnosticsParams published = session.client.awaitDiagnostics(uri,
          p -> forField(p, StoreFixture.INSTANCE).isPresent());
      assertEquals(DiagnosticSeverity.Information, severity(published, StoreFixture.INSTANCE));
      assertEquals(1, session.client.shown.stream()
          .filter(m -> m.getType() == MessageType.Warning && m.getMessage().contains("cannot open the triage database"))
          .count(), session.client.shown.toString());
      assertTrue(Files.readString(db).startsWith("this is not an SQLite database"));
    }
  }

  @Test
  void aPulledMarksFileSilencesTheFieldWhenTheClientReportsTheChange(@TempDir Path teammate) throws Exception {
    Fixtures.mavenProject(project);
    try (TriageStore store = StoreFixture.open(project)) {
      StoreFixture.destructiveInstance(store);
    }
    try (LspSession session = LspSession.start()) {
      session.initialize(project);
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      session.client.awaitDiagnostics(uri, p -> severity(p, StoreFixture.INSTANCE) == DiagnosticSeverity.Error);

      // a teammate marked it in their clone; their marks file arrives with a pull
      try (TriageStore theirs = StoreFixture.open(teammate)) {
        theirs.marks().markTrustedBenign(FieldKey.parse(StoreFixture.INSTANCE), "bo", "only a cache; rebuilt on miss");
      }
      Path shared = project.resolve(".racetriage/trusted-benign.json");
      Files.copy(teammate.resolve(".racetriage/trusted-benign.json"), shared,
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      session.server.getWorkspaceService().didChangeWatchedFiles(new org.eclipse.lsp4j.DidChangeWatchedFilesParams(
          List.of(new org.eclipse.lsp4j.FileEvent(shared.toUri().toString(), org.eclipse.lsp4j.FileChangeType.Changed))));
      session.client.awaitDiagnostics(uri, p -> forField(p, StoreFixture.INSTANCE).isEmpty());
      try (TriageStore store = StoreFixture.open(project)) {
        assertEquals("bo", store.marks().find(FieldKey.parse(StoreFixture.INSTANCE)).orElseThrow().author());
      }
    }
  }

  @Test
  void aLockedDatabaseDelaysOnlyTheVerdictsAndTheyComeWhenItIsReleased() throws Exception {
    Fixtures.mavenProject(project);
    Path db;
    try (TriageStore store = StoreFixture.open(project)) {
      StoreFixture.destructiveInstance(store);
      db = store.file();
    }
    // another process holds the file exclusively (a long migration, a backup tool)
    try (java.sql.Connection holder = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
        java.sql.Statement statement = holder.createStatement()) {
      statement.execute("PRAGMA locking_mode = EXCLUSIVE");
      statement.execute("BEGIN EXCLUSIVE");
      try (LspSession session = LspSession.start()) {
        session.initialize(project);
        String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
        PublishDiagnosticsParams published = session.client.awaitDiagnostics(uri,
            p -> forField(p, StoreFixture.INSTANCE).isPresent());
        assertEquals(DiagnosticSeverity.Information, severity(published, StoreFixture.INSTANCE),
            "static candidates do not wait for the database");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RecordingClient.WAIT_SECONDS);
        while (session.client.shown.stream().noneMatch(m -> m.getMessage().contains("cannot open the triage database"))
            && System.nanoTime() < deadline) {
          Thread.sleep(50);
        }
        assertTrue(session.client.shown.stream()
            .anyMatch(m -> m.getMessage().contains("cannot open the triage database")), "the user is told once");

        statement.execute("COMMIT");
        statement.execute("PRAGMA locking_mode = NORMAL");
        statement.execute("SELECT count(*) FROM sqlite_master"); // a read drops the exclusive lock
        holder.close();
        session.client.awaitDiagnostics(uri, p -> severity(p, StoreFixture.INSTANCE) == DiagnosticSeverity.Error);
      }
    }
  }
}
