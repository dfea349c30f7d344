package dev.racetriage.lsp;

import dev.racetriage.lsp.analysis.StaticCandidates;
import dev.racetriage.lsp.codeactions.CodeActionHandler;
import dev.racetriage.lsp.codelens.CodeLensHandler;
import dev.racetriage.lsp.diagnostics.DiagnosticsScheduler;
import dev.racetriage.lsp.documents.DocumentSnapshot;
import dev.racetriage.lsp.documents.OpenDocuments;
import dev.racetriage.lsp.hover.HoverHandler;
import dev.racetriage.lsp.lifecycle.ClientLog;
import dev.racetriage.lsp.lifecycle.RequestRunner;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.CodeLens;
import org.eclipse.lsp4j.CodeLensParams;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidCloseTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.DidSaveTextDocumentParams;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.TextDocumentService;

/**
 * Document sync (the open documents and their debounced analysis) and the per-document requests. The notifications
 * only record the text and schedule its analysis; the requests answer from the findings last published.
 */
final class RacetriageTextDocumentService implements TextDocumentService {
  private final OpenDocuments documents;
  private final DiagnosticsScheduler diagnostics;
  private final StaticCandidates staticCandidates;
  private final RequestRunner runner;
  private final CodeActionHandler codeActions;
  private final HoverHandler hover;
  private final CodeLensHandler codeLens;
  private final ClientLog log;

  RacetriageTextDocumentService(OpenDocuments documents, DiagnosticsScheduler diagnostics,
      StaticCandidates staticCandidates, RequestRunner runner, CodeActionHandler codeActions, HoverHandler hover,
      CodeLensHandler codeLens, ClientLog log) {
    this.documents = documents;
    this.diagnostics = diagnostics;
    this.staticCandidates = staticCandidates;
    this.runner = runner;
    this.codeActions = codeActions;
    this.hover = hover;
    this.codeLens = codeLens;
    this.log = log;
  }

  @Override
  public void didOpen(DidOpenTextDocumentParams params) {
    var item = params.getTextDocument();
    DocumentSnapshot snapshot = documents.open(item.getUri(), item.getVersion(), item.getText() == null ? "" : item.getText());
    if (snapshot.isJava()) {
      diagnostics.opened(snapshot.uri());
    }
  }

  @Override
  public void didChange(DidChangeTextDocumentParams params) {
    String uri = params.getTextDocument().getUri();
    var changed = documents.change(uri, params.getTextDocument().getVersion(), params.getContentChanges());
    if (changed.isEmpty()) {
      log.warn("racetriage: didChange for " + uri + ", which was never opened; the change is ignored");
    } else if (changed.get().isJava()) {
      diagnostics.changed(uri);
    }
  }

  @Override
  public void didClose(DidCloseTextDocumentParams params) {
    String uri = params.getTextDocument().getUri();
    documents.close(uri).ifPresent(closed -> {
      diagnostics.closed(uri);
      // the prefilter holds the unsaved text of the closed buffer: go back to what is on disk
      if (closed.isJava()) {
        staticCandidates.fileChanged(closed.path());
      }
    });
  }

  @Override
  public void didSave(DidSaveTextDocumentParams params) {
    documents.get(params.getTextDocument().getUri()).ifPresent(doc -> staticCandidates.fileChanged(doc.path()));
  }

  @Override
  public CompletableFuture<List<Either<Command, CodeAction>>> codeAction(CodeActionParams params) {
    return runner.run("textDocument/codeAction", cancel -> codeActions.handle(params, cancel));
  }

  @Override
  public CompletableFuture<Hover> hover(HoverParams params) {
    return runner.run("textDocument/hover", cancel -> hover.handle(params));
  }

  @Override
  public CompletableFuture<List<? extends CodeLens>> codeLens(CodeLensParams params) {
    return runner.run("textDocument/codeLens", cancel -> codeLens.handle(params));
  }
}
