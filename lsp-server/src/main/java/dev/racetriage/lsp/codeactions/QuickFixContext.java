package dev.racetriage.lsp.codeactions;

import dev.racetriage.lsp.diagnostics.LocatedFinding;
import dev.racetriage.lsp.documents.DocumentSnapshot;
import dev.racetriage.lsp.source.DeclaredFields;
import java.util.List;
import java.util.Optional;
import org.eclipse.jdt.core.dom.CompilationUnit;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.Range;

/**
 * What a quick-fix processor sees for one racy field at the requested range.
 *
 * @param document the document's text at the version the client asked about
 * @param unit its syntax tree (no bindings); processors rewrite it
 * @param fields the fields the document declares
 * @param target the finding the fix is about
 * @param range the client's selection or cursor
 * @param diagnostics the client's diagnostics for this field, attached to the actions so clients link them
 */
public record QuickFixContext(
    DocumentSnapshot document,
    CompilationUnit unit,
    DeclaredFields fields,
    LocatedFinding target,
    Range range,
    List<Diagnostic> diagnostics) {

  public String fieldKey() {
    return target.finding().fieldKey();
  }

  public Optional<dev.racetriage.lsp.source.DeclaredField> declaration() {
    return fields.get(fieldKey());
  }
}
