package dev.racetriage.lsp.codelens;

import dev.racetriage.lsp.commands.Commands;
import dev.racetriage.lsp.diagnostics.FileFindings;
import dev.racetriage.lsp.diagnostics.LocatedFinding;
import dev.racetriage.lsp.diagnostics.PublishedFindings;
import dev.racetriage.lsp.documents.OpenDocuments;
import dev.racetriage.lsp.findings.FieldFinding;
import dev.racetriage.lsp.findings.HeuristicRow;
import dev.racetriage.lsp.lifecycle.ClientLog;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.lsp4j.CodeLens;
import org.eclipse.lsp4j.CodeLensParams;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;

/**
 * {@code textDocument/codeLens}: one lens above each racy field declared in the document, with its verdict and how
 * many adversarial trials failed; clicking it opens the dashboard. Static candidates get no lens (their diagnostic is
 * enough, and a lens per candidate would crowd the code). Lenses come from the findings last published, at once;
 * a publication that changes them asks the client to refresh ({@link #changed}).
 */
public final class CodeLensHandler {
  private final OpenDocuments documents;
  private final PublishedFindings published;
  private final ClientLog log;

  public CodeLensHandler(OpenDocuments documents, PublishedFindings published, ClientLog log) {
    this.documents = documents;
    this.published = published;
    this.log = log;
  }

  public List<CodeLens> handle(CodeLensParams params) {
    String uri = params.getTextDocument().getUri();
    if (documents.get(uri).isEmpty()) {
      log.warn("racetriage: codeLens for " + uri + ", which is not open; open it first (no lenses)");
      return List.of();
    }
    return published.of(uri).map(CodeLensHandler::lenses).orElse(List.of());
  }

  static List<CodeLens> lenses(FileFindings findings) {
    List<CodeLens> lenses = new ArrayList<>();
    for (LocatedFinding located : findings.findings()) {
      if (located.declaredHere() && located.finding().status().isVerdict()) {
        Position start = new Position(located.anchor().getStart().getLine(), 0);
        lenses.add(new CodeLens(new Range(start, start),
            new Command(title(located.finding()), Commands.OPEN_DASHBOARD, List.of(located.finding().fieldKey())),
            null));
      }
    }
    return lenses;
  }

  /** Whether a document's lenses differ after a publication ({@code before} null: its first). */
  public static boolean changed(FileFindings before, FileFindings after) {
    return !(before == null ? List.of() : lenses(before)).equals(lenses(after));
  }

  static String title(FieldFinding finding) {
    int runs = 0;
    int failures = 0;
    for (HeuristicRow row : finding.evidence().rows()) {
      if (!row.heuristic().equals("sc")) {
        runs += row.runs();
        failures += row.failures();
      }
    }
    String base = "racetriage: " + finding.status().id();
    return runs == 0 ? base : base + " (" + failures + "/" + runs + " adversarial trials failed)";
  }
}
