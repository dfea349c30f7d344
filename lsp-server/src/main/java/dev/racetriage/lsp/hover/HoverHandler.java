package dev.racetriage.lsp.hover;

import dev.racetriage.lsp.diagnostics.FileFindings;
import dev.racetriage.lsp.diagnostics.LocatedFinding;
import dev.racetriage.lsp.diagnostics.PublishedFindings;
import dev.racetriage.lsp.documents.OpenDocuments;
import dev.racetriage.lsp.lifecycle.ClientLog;
import java.util.Optional;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.MarkupContent;
import org.eclipse.lsp4j.MarkupKind;

/**
 * {@code textDocument/hover} on a racy field's declaration or on a line that accesses it, from the findings last
 * published for the document: at once, even while a newer version is being analysed.
 */
public final class HoverHandler {
  private final OpenDocuments documents;
  private final PublishedFindings published;
  private final ClientLog log;

  public HoverHandler(OpenDocuments documents, PublishedFindings published, ClientLog log) {
    this.documents = documents;
    this.published = published;
    this.log = log;
  }

  /** @return null (the protocol's "no hover") when there is nothing racy here */
  public Hover handle(HoverParams params) {
    String uri = params.getTextDocument().getUri();
    if (documents.get(uri).isEmpty()) {
      log.warn("racetriage: hover for " + uri + ", which is not open; open it first (no hover)");
      return null;
    }
    Optional<LocatedFinding> finding =
        published.of(uri).flatMap(findings -> findings.at(params.getPosition()));
    if (finding.isEmpty()) {
      return null;
    }
    Hover hover = new Hover(new MarkupContent(MarkupKind.MARKDOWN, FindingMarkdown.render(finding.get().finding())));
    hover.setRange(FileFindings.contains(finding.get().anchor(), params.getPosition())
        ? finding.get().anchor() : null);
    return hover;
  }
}
