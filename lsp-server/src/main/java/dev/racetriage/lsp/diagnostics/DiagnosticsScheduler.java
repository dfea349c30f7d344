package dev.racetriage.lsp.diagnostics;

import dev.racetriage.lsp.documents.DocumentSnapshot;
import dev.racetriage.lsp.documents.OpenDocuments;
import dev.racetriage.lsp.lifecycle.ClientLog;
import dev.racetriage.lsp.lifecycle.ClientSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.jsonrpc.CancelChecker;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * Publishes a document's diagnostics after typing pauses. Each change restarts the document's debounce delay; the
 * analysis runs on the server's analysis thread — never on a request's — and stops at its next cancellation check
 * once a newer version of its document exists (or the document closed, or the server stops); a result for an
 * outdated version is never published. What was published is kept in {@link PublishedFindings} for the requests.
 */
public final class DiagnosticsScheduler implements AutoCloseable {
  private final OpenDocuments documents;
  private final FileFindingsComputer computer;
  private final Supplier<LanguageClient> client;
  private final Supplier<ClientSupport> clientSupport;
  private final LongSupplier debounceMillis;
  private final ClientLog log;
  private final ScheduledExecutorService executor;
  private final PublishedFindings published;
  private final BiConsumer<FileFindings, FileFindings> afterPublish;
  private volatile boolean closed;
  private final Object publication = new Object();
  private final Map<String, ScheduledFuture<?>> pending = new ConcurrentHashMap<>();

  /**
   * @param executor the analysis thread (one: the prefilter serialises its work anyway)
   * @param afterPublish told of each publication, with what was published for the document before (or null)
   */
  public DiagnosticsScheduler(OpenDocuments documents, FileFindingsComputer computer, ScheduledExecutorService executor,
      PublishedFindings published, BiConsumer<FileFindings, FileFindings> afterPublish, Supplier<LanguageClient> client,
      Supplier<ClientSupport> clientSupport, LongSupplier debounceMillis, ClientLog log) {
    this.documents = documents;
    this.computer = computer;
    this.executor = executor;
    this.published = published;
    this.afterPublish = afterPublish;
    this.client = client;
    this.clientSupport = clientSupport;
    this.debounceMillis = debounceMillis;
    this.log = log;
  }

  /** A document changed: analyse it once typing pauses. */
  public void changed(String uri) {
    schedule(uri, debounceMillis.getAsLong());
  }

  /**
   * A document opened: analyse it now. Nobody is typing yet, and a debounce here only delayed a fresh editor's first
   * diagnostics (by 250 ms of the second start's budget); a change right after supersedes the analysis as usual.
   */
  public void opened(String uri) {
    schedule(uri, 0);
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
    computer.forget(uri);
    synchronized (publication) {
      published.remove(uri);
      LanguageClient c = client.get();
      if (c != null) {
        c.publishDiagnostics(new PublishDiagnosticsParams(uri, List.of()));
      }
    }
  }

  private void schedule(String uri, long delayMillis) {
    if (closed) {
      return;
    }
    try {
      pending.compute(uri, (key, previous) -> {
        if (previous != null) {
          previous.cancel(false); // one still running is stopped by its CancelChecker, not by an interrupt
        }
        return executor.schedule(() -> analyse(uri), delayMillis, TimeUnit.MILLISECONDS);
      });
    } catch (RejectedExecutionException stopping) {
      // the server is shutting down: nothing to publish to
    }
  }

  private void analyse(String uri) {
    Optional<DocumentSnapshot> snapshot = documents.get(uri);
    if (snapshot.isEmpty()) {
      return;
    }
    try {
      CancelChecker superseded = supersededBy(snapshot.get());
      superseded.checkCanceled(); // superseded while it waited for the thread
      if (!published.has(uri) && computer.awaitsProject(snapshot.get())) {
        // just opened while the project's scan runs: the store's verdicts at once, the file's own candidates next
        // (a document with diagnostics keeps them until its candidates are there, rather than flicker)
        publishIfCurrent(uri, computer.verdictsOnly(snapshot.get(), superseded));
      }
      publishIfCurrent(uri, computer.compute(snapshot.get(), superseded));
    } catch (CancellationException superseded) {
      // a newer version is scheduled, and it publishes (or the document closed, or the server stops)
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      // StackOverflowError: JDT recurses on deeply nested expressions (a long string concatenation); the file is
      // reported, the server and the other files go on
      log.error("racetriage: analysing " + snapshot.get().path() + " failed; its diagnostics are not updated", e);
    }
  }

  private void publishIfCurrent(String uri, FileFindings findings) {
    FileFindings before;
    synchronized (publication) { // not after the document's closing cleared its diagnostics
      if (!documents.isCurrent(findings.snapshot()) || closed) {
        return;
      }
      before = published.put(findings);
      publish(findings);
    }
    afterPublish.accept(before, findings);
  }

  private CancelChecker supersededBy(DocumentSnapshot snapshot) {
    return () -> {
      if (closed) {
        throw new CancellationException("the server is stopping");
      }
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
   * Stops analysing: an analysis in flight stops at its next cancellation check, unpublished. The executor belongs to
   * the server, which shuts it down (see {@link dev.racetriage.lsp.lifecycle.QuietExecutors} for why no interrupt).
   */
  @Override
  public void close() {
    closed = true;
    pending.values().forEach(task -> task.cancel(false));
  }
}
