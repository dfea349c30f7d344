package dev.racetriage.lsp.hover;

import dev.racetriage.lsp.diagnostics.DiagnosticsScheduler;
import dev.racetriage.lsp.diagnostics.FileFindings;
import dev.racetriage.lsp.diagnostics.LocatedFinding;
import dev.racetriage.lsp.documents.OpenDocuments;
import dev.racetriage.lsp.lifecycle.ClientLog;
import java.util.Optional;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.MarkupContent;
import org.eclipse.lsp4j.MarkupKind;
import org.eclipse.lsp4j.jsonrpc.CancelChecker;

/** {@code textDocument/hover} on a racy field's declaration or on a line that accesses it. */
public final class HoverHandler {
  private final OpenDocuments documents;
  private final DiagnosticsScheduler diagnostics;
  private final ClientLog log;

  public HoverHandler(OpenDocuments documents, DiagnosticsScheduler diagnostics, ClientLog log) {
    this.documents = documents;
    this.diagnostics = diagnostics;
    this.log = log;
  }

  /** @return null (the protocol's "no hover") when there is nothing racy here */
  public Hover handle(HoverParams params, CancelChecker cancel) {
    String uri = params.getTextDocument().getUri();
    if (documents.get(uri).isEmpty()) {
      log.warn("racetriage: hover for " + uri + ", which is not open; open it first (no hover)");
      return null;
    }
    Optional<LocatedFinding> finding =
        diagnostics.current(uri, cancel).flatMap(findings -> findings.at(params.getPosition()));
    if (finding.isEmpty()) {
      return null;
    }
    Hover hover = new Hover(new MarkupContent(MarkupKind.MARKDOWN, FindingMarkdown.render(finding.get().finding())));
    hover.setRange(FileFindings.contains(finding.get().anchor(), params.getPosition())
        ? finding.get().anchor() : null);
    return hover;
  }
}
