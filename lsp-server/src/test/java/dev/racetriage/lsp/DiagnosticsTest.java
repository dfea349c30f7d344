package dev.racetriage.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import dev.racetriage.lsp.diagnostics.DiagnosticFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Range;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiagnosticsTest {
  @TempDir Path project;

  static Optional<Diagnostic> forField(PublishDiagnosticsParams published, String fieldKey) {
    return published.getDiagnostics().stream()
        .filter(d -> d.getData() instanceof JsonObject data
            && fieldKey.equals(data.get(DiagnosticFactory.DATA_FIELD_KEY).getAsString()))
        .findFirst();
  }

  @Test
  void openingAFilePublishesItsStaticCandidates() throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(Fixtures.mavenProject(project));
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      PublishDiagnosticsParams published =
          session.client.awaitDiagnostics(uri, p -> forField(p, "demo.LazySingletonBad.instance").isPresent());
      Diagnostic diagnostic = forField(published, "demo.LazySingletonBad.instance").orElseThrow();
      assertEquals("racetriage", diagnostic.getSource());
      assertEquals("double-checked-locking", diagnostic.getCode().getLeft());
      assertTrue(diagnostic.getSeverity() == DiagnosticSeverity.Information
          || diagnostic.getSeverity() == DiagnosticSeverity.Hint);
      // the anchor is the field's name in its declaration
      assertEquals(new Range(new Position(4, 34), new Position(4, 42)), diagnostic.getRange());
      assertFalse(diagnostic.getRelatedInformation().isEmpty(), "related information points at the accesses");
      assertTrue(diagnostic.getRelatedInformation().stream()
          .allMatch(info -> info.getLocation().getUri().equals(uri)));
      assertEquals(1, published.getVersion());

      // the first analysis scanned the project, and said so
      org.eclipse.lsp4j.ProgressParams begin = session.client.awaitProgress();
      var started = (org.eclipse.lsp4j.WorkDoneProgressBegin) begin.getValue().getLeft();
      assertTrue(started.getTitle().startsWith("racetriage: scanning"), started.getTitle());
      org.eclipse.lsp4j.ProgressParams end = session.client.awaitProgress();
      assertTrue(end.getValue().getLeft() instanceof org.eclipse.lsp4j.WorkDoneProgressEnd);
      assertEquals(begin.getToken(), end.getToken());
    }
  }

  private static final String TAGS = """
      package demo;

      import java.util.ArrayList;
      import java.util.List;

      public class TagsBad {
        private final List<String> tags = new ArrayList<>();

        public void start() {
          for (int i = 0; i < 2; i++) {
            new Thread(() -> tags.add("t")).start();
          }
        }

        public int count() {
          return tags.size();
        }
      }
      """;

  /** A container race candidate ({@code pkg.Cls.tags{}}, the agent's name) is anchored at the field that holds it. */
  @Test
  void aContainerCandidateIsAnchoredAtTheFieldThatHoldsTheContainer() throws Exception {
    try (LspSession session = LspSession.start()) {
      Path dir = Fixtures.mavenProject(project);
      Path source = Fixtures.source(dir, "demo/TagsBad.java");
      java.nio.file.Files.writeString(source, TAGS);
      session.initialize(dir);
      String uri = session.open(source);
      PublishDiagnosticsParams published =
          session.client.awaitDiagnostics(uri, p -> forField(p, "demo.TagsBad.tags{}").isPresent());
      Diagnostic diagnostic = forField(published, "demo.TagsBad.tags{}").orElseThrow();
      int line = 6;
      int column = TAGS.lines().toList().get(line).indexOf("tags");
      assertEquals(new Range(new Position(line, column), new Position(line, column + 4)), diagnostic.getRange());
      assertTrue(diagnostic.getMessage().contains("tags"), diagnostic.getMessage());
    }
  }

  @Test
  void anOpenedFileIsAnalysedWithoutWaitingForTheTypingPause() throws Exception {
    try (LspSession session = LspSession.start()) {
      com.google.gson.JsonObject settings = LspSession.testSettings();
      // a debounce nobody waits out: only an analysis that does not wait for typing to pause can publish
      settings.getAsJsonObject("racetriage").addProperty("debounceMillis", 3_600_000);
      session.initialize(Fixtures.mavenProject(project), settings, LspSession.fullCapabilities());
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      assertTrue(forField(session.client.awaitDiagnostics(uri,
          p -> forField(p, "demo.LazySingletonBad.instance").isPresent()), "demo.LazySingletonBad.instance")
          .isPresent());
    }
  }

  @Test
  void changingTheFileRepublishesForTheNewVersion() throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(Fixtures.mavenProject(project));
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      session.client.awaitDiagnostics(uri, p -> forField(p, "demo.LazySingletonBad.instance").isPresent());

      // an incremental edit: "private static LazySingletonBad" -> "private static volatile LazySingletonBad"
      int version = session.edit(uri, new Range(new Position(4, 17), new Position(4, 17)), "volatile ");
      PublishDiagnosticsParams updated = session.client.awaitDiagnostics(uri, p -> p.getVersion() == version);
      assertTrue(forField(updated, "demo.LazySingletonBad.instance").isEmpty(),
          "a volatile field is no candidate: " + updated.getDiagnostics());

      // and back, by a full-text change
      int reverted = session.replaceText(uri, Fixtures.text(Fixtures.SINGLETON));
      PublishDiagnosticsParams again = session.client.awaitDiagnostics(uri, p -> p.getVersion() == reverted);
      assertTrue(forField(again, "demo.LazySingletonBad.instance").isPresent());
    }
  }

  @Test
  void aFileWithSyntaxErrorsStillGetsDiagnostics() throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(Fixtures.mavenProject(project));
      String broken = Fixtures.text(Fixtures.SINGLETON).replace("return instance;", "return instance +;")
          .replace("public int slot(int i) {", "public int slot(int i {");
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON), broken);
      PublishDiagnosticsParams published = session.client.awaitDiagnostics(uri, p -> true);
      assertEquals(1, published.getVersion());
      // the server keeps answering
      assertEquals(List.of(), session.codeActions(uri, new Range(new Position(0, 0), new Position(0, 0)), List.of()));
    }
  }

  @Test
  void closingAFileClearsItsDiagnostics() throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(Fixtures.mavenProject(project));
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      session.client.awaitDiagnostics(uri, p -> !p.getDiagnostics().isEmpty());
      session.server.getTextDocumentService().didClose(
          new org.eclipse.lsp4j.DidCloseTextDocumentParams(new org.eclipse.lsp4j.TextDocumentIdentifier(uri)));
      session.client.awaitDiagnostics(uri, p -> p.getDiagnostics().isEmpty());
    }
  }

  @Test
  void aProjectWithoutPomStillGetsCandidatesAndIsToldOnce() throws Exception {
    try (LspSession session = LspSession.start()) {
      Fixtures.mavenProject(project);
      java.nio.file.Files.delete(project.resolve("pom.xml"));
      session.initialize(project);
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      session.client.awaitDiagnostics(uri, p -> forField(p, "demo.LazySingletonBad.instance").isPresent());
      assertEquals(1, session.client.shown.stream().filter(m -> m.getMessage().contains("not a Maven project")).count());
    }
  }

  @Test
  void aFileOutsideTheWorkspaceIsAnalysedOnItsOwn(@TempDir Path elsewhere) throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(Fixtures.mavenProject(project));
      Path loose = elsewhere.resolve("demo/LazySingletonBad.java");
      String uri = session.open(loose, Fixtures.text(Fixtures.SINGLETON));
      PublishDiagnosticsParams published =
          session.client.awaitDiagnostics(uri, p -> forField(p, "demo.LazySingletonBad.instance").isPresent());
      assertTrue(forField(published, "demo.LazySingletonBad.instance").get().getRelatedInformation().stream()
          .allMatch(info -> info.getLocation().getUri().equals(uri)), "only its own accesses");
    }
  }

  /** A project whose scan finishes when the test says so; its preview and its analysis tell themselves apart. */
  private static final class SlowScan implements dev.racetriage.lsp.analysis.StaticCandidates {
    private final java.util.concurrent.CountDownLatch scanned = new java.util.concurrent.CountDownLatch(1);
    private volatile Runnable whenReady = () -> { };
    private volatile boolean analysedBeforeTheScan;

    private static List<dev.racetriage.lsp.findings.FieldFinding> finding(String code) {
      return List.of(new dev.racetriage.lsp.findings.FieldFinding(StoreFixture.INSTANCE,
          dev.racetriage.lsp.findings.FieldStatus.CANDIDATE, code, "summary", List.of(), 0.9, List.of(),
          dev.racetriage.lsp.findings.VerdictEvidence.none()));
    }

    @Override
    public boolean ready(Path file) {
      return scanned.getCount() == 0;
    }

    @Override
    public void prepare(Runnable ready) {
      whenReady = ready;
    }

    @Override
    public List<dev.racetriage.lsp.findings.FieldFinding> preview(
        dev.racetriage.lsp.documents.DocumentSnapshot document, org.eclipse.lsp4j.jsonrpc.CancelChecker cancel) {
      return finding("from-its-own-text");
    }

    @Override
    public List<dev.racetriage.lsp.findings.FieldFinding> analyse(
        dev.racetriage.lsp.documents.DocumentSnapshot document, org.eclipse.lsp4j.jsonrpc.CancelChecker cancel) {
      analysedBeforeTheScan |= scanned.getCount() > 0;
      return finding("from-the-project");
    }

    void finish() {
      scanned.countDown();
      whenReady.run();
    }
  }

  @Test
  void whileTheProjectIsScannedAnOpenFileShowsVerdictsThenItsOwnCandidatesThenTheProjects() throws Exception {
    SlowScan scan = new SlowScan();
    try (LspSession session = LspSession.start((workspace, settings, log, progress) -> scan)) {
      session.initialize(Fixtures.mavenProject(project));
      String uri = session.open(Fixtures.source(project, Fixtures.SINGLETON));
      PublishDiagnosticsParams first = session.client.awaitDiagnostics(uri, p -> true);
      assertTrue(first.getDiagnostics().isEmpty(), "first the store's verdicts alone (none here), no prefilter");
      PublishDiagnosticsParams preview = session.client.awaitDiagnostics(uri, p -> true);
      assertEquals("from-its-own-text", forField(preview, StoreFixture.INSTANCE).orElseThrow().getCode().getLeft());
      assertEquals(1, preview.getVersion());

      scan.finish();
      PublishDiagnosticsParams after = session.client.awaitDiagnostics(uri, p -> forField(p, StoreFixture.INSTANCE)
          .filter(d -> d.getCode().getLeft().equals("from-the-project")).isPresent());
      assertEquals(1, after.getVersion(), "the same version, re-published once the project is known");
      assertFalse(scan.analysedBeforeTheScan, "nothing waited for the scan");
    }
  }
}
