package dev.racetriage.lsp.diagnostics;

import dev.racetriage.lsp.findings.FieldFinding;
import java.util.List;
import org.eclipse.lsp4j.Range;

/**
 * A finding placed in one document.
 *
 * @param finding what is known about the field
 * @param anchor where the diagnostic and the code lens go: the field's name in its declaration, or its first access
 *     in this document when it is declared elsewhere
 * @param declaredHere whether the document declares the field (the declaration-only quick fixes need that)
 * @param accessesHere the lines of this document that access the field (hover works on them too)
 */
public record LocatedFinding(FieldFinding finding, Range anchor, boolean declaredHere, List<Range> accessesHere) {

  public LocatedFinding {
    accessesHere = List.copyOf(accessesHere);
  }
}
