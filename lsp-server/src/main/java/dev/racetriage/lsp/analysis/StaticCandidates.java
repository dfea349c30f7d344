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

  /**
   * Whether {@link #analyse} can answer for the file now; false while the project it belongs to is still being
   * scanned (then {@link #analyse} would wait for the scan, and callers show {@link #preview} instead).
   */
  default boolean ready(java.nio.file.Path file) {
    return true;
  }

  /** Starts what {@link #ready} waits for (the project's scan), once; {@code whenReady} runs when it is done. */
  default void prepare(Runnable whenReady) {}

  /** The document's candidates from its own text alone, quickly: what shows until {@link #ready}. */
  default List<FieldFinding> preview(DocumentSnapshot document, CancelChecker cancel) {
    return List.of();
  }

  StaticCandidates NONE = (document, cancel) -> List.of();
}
