package dev.racetriage.lsp.documents;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;

/**
 * The documents the client has open, with their current text. Edits arrive on the JSON-RPC reader thread in order;
 * readers on other threads see whole snapshots only.
 */
public final class OpenDocuments {
  private final Map<String, DocumentSnapshot> byUri = new ConcurrentHashMap<>();

  public DocumentSnapshot open(String uri, int version, String text) {
    DocumentSnapshot snapshot = new DocumentSnapshot(uri, DocumentUris.toPath(uri), version, text);
    byUri.put(uri, snapshot);
    return snapshot;
  }

  /**
   * Applies the changes of one didChange in order (each range is relative to the text after the previous change).
   *
   * @return the new snapshot, or empty if the document was never opened
   */
  public Optional<DocumentSnapshot> change(String uri, int version, List<TextDocumentContentChangeEvent> changes) {
    DocumentSnapshot updated =
        byUri.computeIfPresent(uri, (key, current) -> new DocumentSnapshot(uri, current.path(), version,
            apply(current.text(), changes)));
    return Optional.ofNullable(updated);
  }

  static String apply(String text, List<TextDocumentContentChangeEvent> changes) {
    String result = text;
    for (TextDocumentContentChangeEvent change : changes) {
      if (change.getRange() == null) {
        result = change.getText();
      } else {
        LineIndex lines = LineIndex.of(result);
        int start = lines.offset(change.getRange().getStart());
        int end = Math.max(start, lines.offset(change.getRange().getEnd()));
        result = result.substring(0, start) + change.getText() + result.substring(end);
      }
    }
    return result;
  }

  public Optional<DocumentSnapshot> close(String uri) {
    return Optional.ofNullable(byUri.remove(uri));
  }

  public Optional<DocumentSnapshot> get(String uri) {
    return Optional.ofNullable(byUri.get(uri));
  }

  public Collection<DocumentSnapshot> all() {
    return List.copyOf(byUri.values());
  }

  /** Whether a snapshot is still the one the client has: results computed on an older one are dropped. */
  public boolean isCurrent(DocumentSnapshot snapshot) {
    DocumentSnapshot current = byUri.get(snapshot.uri());
    return current != null && current.version() == snapshot.version();
  }
}
