package dev.racetriage.lsp;

import static dev.racetriage.lsp.DiagnosticsTest.forField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.AccessType;
import dev.racetriage.store.races.Race;
import dev.racetriage.store.races.RaceKind;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.store.verdicts.Evidence;
import dev.racetriage.store.verdicts.Verdict;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.CodeLens;
import org.eclipse.lsp4j.CodeLensParams;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20's editor half of "a fixed race leaves every view", over JSON-RPC with the server running while the store
 * changes under it: examples/racy-shapes triaged (BusyWait.result destructive, BusyWait.done benign), BusyWait.java
 * open; a later triage records result as fixed (another process, through the store's API, as {@code RaceResolution}
 * does) and the open document loses its Error, hover and lens while done's Hint stays; a triage that detects result
 * again (a regression) brings the Error back.
 */
class FixedRaceTest {
  private static final String RESULT = "dev.racetriage.examples.BusyWait.result";
  private static final String DONE = "dev.racetriage.examples.BusyWait.done";
  private static final String TEST = "dev.racetriage.examples.BusyWaitTest#consumerSeesTheProducedSum";

  @TempDir Path dir;

  @Test
  void aRaceTheStoreSaysIsFixedLeavesTheOpenDocumentAndARegressionBringsItBack() throws Exception {
    Path project = Fixtures.racyShapes(dir.resolve("racy-shapes"));
    Path source = project.resolve(Fixtures.EXAMPLES_PACKAGE_DIR).resolve("BusyWait.java");
    try (TriageStore store = StoreFixture.open(project)) {
      Run triage = store.runs().start("triage", "c0ffee1", null);
      record(store, RESULT, 33, 19, triage);
      store.verdicts().set(FieldKey.parse(RESULT), Verdict.DESTRUCTIVE,
          Evidence.of("12/40 runs failed under oldest-but-different, 0/40 under sc"), triage.id());
      record(store, DONE, 30, 20, triage);
      store.verdicts().set(FieldKey.parse(DONE), Verdict.BENIGN, Evidence.of("stale reads served, no failure"),
          triage.id());
      store.runs().finish(triage.id(), RunStatus.SUCCEEDED, "2 races", null);
    }
    try (LspSession session = LspSession.start()) {
      session.initialize(project);
      String uri = session.open(source);
      PublishDiagnosticsParams triaged = session.client.awaitDiagnostics(uri,
          p -> severity(p, RESULT) == DiagnosticSeverity.Error && severity(p, DONE) == DiagnosticSeverity.Hint);
      Diagnostic error = forField(triaged, RESULT).orElseThrow();
      assertTrue(hover(session, uri, error).contains("racetriage: destructive"));
      assertTrue(lenses(session, uri).stream().anyMatch(l -> l.getCommand().getTitle().contains("destructive")));

      // `result` made volatile, triaged again: its test ran and passed and no race was seen
      try (TriageStore other = StoreFixture.open(project)) {
        Run fixing = other.runs().start("triage", "c0ffee2", null);
        assertTrue(other.races().markFixed(FieldKey.parse(RESULT), fixing.id(),
            "not detected by run #" + fixing.id() + "; the test(s) that exercised it ran and passed: " + TEST));
        other.runs().finish(fixing.id(), RunStatus.SUCCEEDED, "1 race, 1 fixed", null);
      }
      PublishDiagnosticsParams fixed = session.client.awaitDiagnostics(uri,
          p -> forField(p, RESULT).filter(d -> d.getSeverity() == DiagnosticSeverity.Error).isEmpty()
              && severity(p, DONE) == DiagnosticSeverity.Hint);
      // no verdict on the fixed field: at most the prefilter's candidate, never the store's destructive Error
      forField(fixed, RESULT).ifPresent(d -> assertEquals(DiagnosticSeverity.Information, d.getSeverity(),
          "only a static candidate may remain: " + d));
      assertTrue(!hover(session, uri, error).contains("destructive"), "the hover no longer shows the verdict");
      assertTrue(lenses(session, uri).stream().noneMatch(l -> l.getCommand().getTitle().contains("destructive")),
          "nor the code lens");

      // the change reverted, triaged again: detected again, a regression
      try (TriageStore other = StoreFixture.open(project)) {
        Run regressing = other.runs().start("triage", "c0ffee3", null);
        record(other, RESULT, 33, 19, regressing);
        other.runs().finish(regressing.id(), RunStatus.SUCCEEDED, "2 races, 1 regressed", null);
      }
      session.client.awaitDiagnostics(uri, p -> severity(p, RESULT) == DiagnosticSeverity.Error);
    }
  }

  private static void record(TriageStore store, String key, int readLine, int writeLine, Run run) {
    FieldKey field = FieldKey.parse(key);
    String frame = "dev.racetriage.examples.BusyWait.";
    store.races().upsert(new Race(field, Set.of(RaceKind.WR), List.of(
        new AccessSite(AccessType.READ, "consumer", "BusyWait.java", readLine,
            List.of(frame + "awaitResult(BusyWait.java:" + readLine + ")")),
        new AccessSite(AccessType.WRITE, "producer", "BusyWait.java", writeLine,
            List.of(frame + "produce(BusyWait.java:" + writeLine + ")"))), Set.of(TEST)), run.id());
  }

  private static DiagnosticSeverity severity(PublishDiagnosticsParams p, String key) {
    return forField(p, key).map(Diagnostic::getSeverity).orElse(null);
  }

  private static String hover(LspSession session, String uri, Diagnostic on) throws Exception {
    Hover hover = session.server.getTextDocumentService().hover(new HoverParams(new TextDocumentIdentifier(uri),
        on.getRange().getStart())).get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
    return hover == null ? "" : hover.getContents().getRight().getValue();
  }

  private static List<? extends CodeLens> lenses(LspSession session, String uri) throws Exception {
    return session.server.getTextDocumentService().codeLens(new CodeLensParams(new TextDocumentIdentifier(uri)))
        .get(RecordingClient.WAIT_SECONDS, TimeUnit.SECONDS);
  }
}
