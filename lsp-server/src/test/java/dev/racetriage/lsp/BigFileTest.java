package dev.racetriage.lsp;

import static dev.racetriage.lsp.DiagnosticsTest.forField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeLens;
import org.eclipse.lsp4j.CodeLensParams;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The issue "a hover took 17.7 s while a 1 MB file was analysed": requests answer from the findings last published,
 * never waiting for an analysis, and a newer version supersedes the analysis of an older one. The analysis is held
 * by a gate ({@link HeldAnalysis}) instead of being timed: a request that waited for it would not answer at all.
 * The file is opened outside any workspace, so it is analysed on its own, with no project scan racing the test.
 */
class BigFileTest {
  private static final int ONE_MEGABYTE = 1 << 20;
  /** A real analysis of 1 MB on a loaded machine: generous, and no duration is asserted. */
  private static final long REAL_ANALYSIS_SECONDS = 900;

  @TempDir Path dir;

  private Path file() {
    return dir.resolve("demo").resolve(BigJavaFile.CLASS + ".java");
  }

  private static Hover hover(LspSession session, String uri, Position position) throws Exception {
    return session.server.getTextDocumentService().hover(new HoverParams(new TextDocumentIdentifier(uri), position))
        .get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
  }

  private static List<? extends CodeLens> codeLenses(LspSession session, String uri) throws Exception {
    return session.server.getTextDocumentService().codeLens(new CodeLensParams(new TextDocumentIdentifier(uri)))
        .get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
  }

  private static Range at(Position position) {
    return new Range(position, position);
  }

  @Test
  void aHoverRightAfterOpeningABigFileAnswersWhileItsAnalysisIsStillRunning() throws Exception {
    HeldAnalysis analysis = new HeldAnalysis();
    try (LspSession session = LspSession.start(analysis.factory())) {
      session.initialize(null);
      analysis.close();
      String uri = session.open(file(), BigJavaFile.generate(ONE_MEGABYTE));
      analysis.awaitHeld(1);

      Position field = BigJavaFile.instanceDeclaration();
      assertNull(hover(session, uri, field), "nothing published yet: no hover, rather than a wait");
      assertTrue(session.codeActions(uri, at(field), List.of()).isEmpty());
      assertTrue(codeLenses(session, uri).isEmpty());
      assertTrue(analysis.holds(1), "the requests answered while the analysis was still running");

      analysis.open();
      session.client.awaitDiagnostics(uri, p -> forField(p, BigJavaFile.FIELD_KEY).isPresent(),
          REAL_ANALYSIS_SECONDS);
      assertTrue(hover(session, uri, field).getContents().getRight().getValue().contains("double-checked-locking"));
      assertEquals(0, session.shutdownAndExit());
    }
  }

  @Test
  void aHoverAndAQuickFixAfterAnEditAnswerFromTheLastPublishedFindingsWhileTheEditIsAnalysed() throws Exception {
    HeldAnalysis analysis = new HeldAnalysis();
    try (LspSession session = LspSession.start(analysis.factory())) {
      session.initialize(null);
      String text = BigJavaFile.generate(ONE_MEGABYTE);
      String uri = session.open(file(), text);
      session.client.awaitDiagnostics(uri, p -> forField(p, BigJavaFile.FIELD_KEY).isPresent(),
          REAL_ANALYSIS_SECONDS);

      analysis.close();
      int edited = session.replaceText(uri, text + "// edited\n");
      analysis.awaitHeld(edited);

      Position field = BigJavaFile.instanceDeclaration();
      Hover stale = hover(session, uri, field);
      assertNotNull(stale, "the findings of the version before the edit answer the hover");
      assertTrue(stale.getContents().getRight().getValue().contains("double-checked-locking"));
      List<CodeAction> fixes = session.codeActions(uri, at(field), List.of());
      assertTrue(fixes.stream().anyMatch(a -> a.getTitle().equals("Add volatile to `instance`")),
          fixes.stream().map(CodeAction::getTitle).toList().toString());
      assertTrue(analysis.holds(edited), "the requests answered while the edit was still being analysed");

      analysis.open();
      session.client.awaitDiagnostics(uri, p -> p.getVersion() == edited, REAL_ANALYSIS_SECONDS);
      assertEquals(0, session.shutdownAndExit());
    }
  }

  @Test
  void anEditSupersedesTheRunningAnalysisOfTheVersionBeforeIt() throws Exception {
    HeldAnalysis analysis = new HeldAnalysis();
    try (LspSession session = LspSession.start(analysis.factory())) {
      session.initialize(null);
      analysis.close();
      String text = BigJavaFile.generate(ONE_MEGABYTE);
      String uri = session.open(file(), text);
      analysis.awaitHeld(1);

      int edited = session.replaceText(uri, text + "// edited\n");
      analysis.awaitCancelled(1);
      analysis.awaitHeld(edited);
      analysis.open();

      List<Integer> published = new CopyOnWriteArrayList<>();
      session.client.awaitDiagnostics(uri, p -> {
        published.add(p.getVersion());
        return p.getVersion() == edited;
      }, REAL_ANALYSIS_SECONDS);
      assertEquals(List.of(edited), published, "nothing is published for the superseded version");
      assertFalse(analysis.holds(1));
      assertEquals(0, session.shutdownAndExit());
    }
  }

  /** The case for real, with no gate: the analysis completes, and requests meanwhile answer. */
  @Test
  void aOneMegabyteFileIsAnalysedToTheEndWhileRequestsAnswer() throws Exception {
    try (LspSession session = LspSession.start()) {
      session.initialize(null);
      String text = BigJavaFile.generate(ONE_MEGABYTE);
      assertTrue(text.length() >= ONE_MEGABYTE);
      String uri = session.open(file(), text);
      Position field = BigJavaFile.instanceDeclaration();
      hover(session, uri, field); // answers, whatever the analysis has reached
      int edited = session.replaceText(uri, text + "// edited\n");
      hover(session, uri, field);
      session.codeActions(uri, at(field), List.of());

      session.client.awaitDiagnostics(uri,
          p -> p.getVersion() == edited && forField(p, BigJavaFile.FIELD_KEY).isPresent(), REAL_ANALYSIS_SECONDS);
      assertTrue(hover(session, uri, field).getContents().getRight().getValue().contains("double-checked-locking"));
      assertEquals(0, session.shutdownAndExit());
    }
  }
}
