package dev.racetriage.lsp.diagnostics;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The findings last published for each open document, whatever version they were computed for. Hovers, code actions
 * and code lenses answer from these at once and never wait for an analysis: while a newer version of a large file is
 * analysed they show the previous version's findings, as the client's diagnostics do (a request must not queue
 * behind an analysis — a hover once took 17.7 s on a 1 MB file). Only the analysis thread writes here.
 */
public final class PublishedFindings {
  private final Map<String, FileFindings> byUri = new ConcurrentHashMap<>();

  /** The findings last published for the document; empty before its first analysis is done, or once it closed. */
  public Optional<FileFindings> of(String uri) {
    return Optional.ofNullable(byUri.get(uri));
  }

  boolean has(String uri) {
    return byUri.containsKey(uri);
  }

  /** @return what was published for the document before, or null */
  FileFindings put(FileFindings findings) {
    return byUri.put(findings.snapshot().uri(), findings);
  }

  void remove(String uri) {
    byUri.remove(uri);
  }
}
