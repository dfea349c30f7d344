package dev.racetriage.lsp.diagnostics;

import dev.racetriage.lsp.documents.DocumentSnapshot;
import dev.racetriage.lsp.documents.OpenDocuments;
import dev.racetriage.lsp.lifecycle.ClientLog;
import dev.racetriage.lsp.lifecycle.ClientSupport;
import dev.racetriage.lsp.lifecycle.QuietExecutors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.jsonrpc.CancelChecker;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * Publishes a document's diagnostics after typing pauses. Each change restarts the document's debounce delay; the
 * analysis runs on one background thread and stops as soon as a newer version of its document exists, and a result
 * for an outdated version is never published.
 */
public final class DiagnosticsScheduler implements AutoCloseable {
  private final OpenDocuments documents;
  private final FileFindingsComputer computer;
  private final Supplier<LanguageClient> client;
  private final Supplier<ClientSupport> clientSupport;
  private final LongSupplier debounceMillis;
  private final ClientLog log;
  private final ScheduledThreadPoolExecutor executor = QuietExecutors.scheduled("racetriage-analysis");
  private volatile boolean closed;
  private final Map<String, ScheduledFuture<?>> pending = new ConcurrentHashMap<>();
  private final Map<String, FileFindings> published = new ConcurrentHashMap<>();

  public DiagnosticsScheduler(OpenDocuments documents, FileFindingsComputer computer, Supplier<LanguageClient> client,
      Supplier<ClientSupport> clientSupport, LongSupplier debounceMillis, ClientLog log) {
    this.documents = documents;
    this.computer = computer;
    this.client = client;
    this.clientSupport = clientSupport;
    this.debounceMillis = debounceMillis;
    this.log = log;
  }

  /** A document opened or changed: analyse it once typing pauses. */
  public void changed(String uri) {
    schedule(uri, debounceMillis.getAsLong());
  }

  /** Something outside the document changed (new verdicts, settings): re-publish every open document now. */
  public void refreshAll() {
    for (DocumentSnapshot snapshot : documents.all()) {
      schedule(snapshot.uri(), 0);
    }
  }

  public void closed(String uri) {
    ScheduledFuture<?> task = pending.remove(uri);
    if (task != null) {
      task.cancel(false);
    }
    published.remove(uri);
    computer.forget(uri);
    LanguageClient c = client.get();
    if (c != null) {
      c.publishDiagnostics(new PublishDiagnosticsParams(uri, List.of()));
    }
  }

  private void schedule(String uri, long delayMillis) {
    if (closed) {
      return;
    }
    pending.compute(uri, (key, previous) -> {
      if (previous != null) {
        previous.cancel(false);
      }
      return executor.schedule(() -> analyse(uri), delayMillis, TimeUnit.MILLISECONDS);
    });
  }

  private void analyse(String uri) {
    Optional<DocumentSnapshot> snapshot = documents.get(uri);
    if (snapshot.isEmpty()) {
      return;
    }
    try {
      CancelChecker superseded = supersededBy(snapshot.get());
      if (!published.containsKey(uri) && computer.awaitsProject(snapshot.get())) {
        // just opened while the project's scan runs: the store's verdicts at once, the file's own candidates next
        // (a document with diagnostics keeps them until its candidates are there, rather than flicker)
        publishIfCurrent(uri, computer.verdictsOnly(snapshot.get(), superseded));
      }
      publishIfCurrent(uri, computer.compute(snapshot.get(), superseded));
    } catch (CancellationException superseded) {
      // a newer version is scheduled; it publishes
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      // StackOverflowError: JDT recurses on deeply nested expressions (a long string concatenation); the file is
      // reported, the server and the other files go on
      log.error("racetriage: analysing " + snapshot.get().path() + " failed; its diagnostics are not updated", e);
    }
  }

  private void publishIfCurrent(String uri, FileFindings findings) {
    if (documents.isCurrent(findings.snapshot())) {
      published.put(uri, findings);
      publish(findings);
    }
  }

  private CancelChecker supersededBy(DocumentSnapshot snapshot) {
    return () -> {
      if (!documents.isCurrent(snapshot)) {
        throw new CancellationException("superseded by a newer version of " + snapshot.uri());
      }
    };
  }

  private void publish(FileFindings findings) {
    LanguageClient c = client.get();
    if (c == null || closed) {
      return;
    }
    ClientSupport support = clientSupport.get();
    List<Diagnostic> diagnostics = new ArrayList<>();
    for (LocatedFinding located : findings.findings()) {
      DiagnosticFactory.create(located, support).ifPresent(diagnostics::add);
    }
    DocumentSnapshot snapshot = findings.snapshot();
    c.publishDiagnostics(new PublishDiagnosticsParams(snapshot.uri(), diagnostics, snapshot.version()));
  }

  /**
   * The findings of the document's current version, computed on the calling thread if the published ones are
   * outdated (a hover or code action right after an edit). Empty for a document that is not open.
   */
  public Optional<FileFindings> current(String uri, CancelChecker cancel) {
    Optional<DocumentSnapshot> snapshot = documents.get(uri);
    if (snapshot.isEmpty()) {
      return Optional.empty();
    }
    FileFindings last = published.get(uri);
    if (last != null && last.snapshot().version() == snapshot.get().version()) {
      return Optional.of(last);
    }
    return Optional.of(computer.compute(snapshot.get(), cancel));
  }

  /**
   * The findings last published for the document, whatever version they were computed for, or the current ones if
   * none was published yet. Code actions read these: the client's diagnostics name the fields and the edits are
   * built on the current text, so a quick fix never waits for the analysis of the latest keystroke.
   */
  public Optional<FileFindings> lastPublished(String uri, CancelChecker cancel) {
    FileFindings last = published.get(uri);
    return last != null && documents.get(uri).isPresent() ? Optional.of(last) : current(uri, cancel);
  }

  /** Stops analysing; an analysis in flight finishes unpublished (see {@link QuietExecutors} for why no interrupt). */
  @Override
  public void close() {
    closed = true;
    executor.shutdown();
  }
}
