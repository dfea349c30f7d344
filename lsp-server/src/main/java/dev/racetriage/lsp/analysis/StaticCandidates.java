package dev.racetriage.lsp.analysis;

import dev.racetriage.lsp.documents.DocumentSnapshot;
import dev.racetriage.lsp.findings.FieldFinding;
import java.util.List;
import org.eclipse.lsp4j.jsonrpc.CancelChecker;

/**
 * The prefilter as the editor needs it: the candidates of one changed document, analysed from its unsaved text. Runs
 * on the analysis thread, never on the JSON-RPC thread.
 */
public interface StaticCandidates {

  /**
   * @return candidates with at least one access in the document; empty for a document that cannot be analysed
   *     (the reason is logged, not thrown)
   */
  List<FieldFinding> analyse(DocumentSnapshot document, CancelChecker cancel);

  /** A file changed on disk (saved, or changed by another tool): forget what was learned from its old text. */
  default void fileChanged(java.nio.file.Path file) {}

  StaticCandidates NONE = (document, cancel) -> List.of();
}
