package dev.racetriage.lsp;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.ProgressParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.RegistrationParams;
import org.eclipse.lsp4j.ShowDocumentParams;
import org.eclipse.lsp4j.ShowDocumentResult;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.WorkDoneProgressCreateParams;
import org.eclipse.lsp4j.services.LanguageClient;

/** A client that records everything the server sends, for tests to wait on. */
final class RecordingClient implements LanguageClient {
  /** Generous: a slow CI machine must not fail a test; a correct server answers in milliseconds. */
  static final long WAIT_SECONDS = 60;

  final BlockingQueue<PublishDiagnosticsParams> diagnostics = new LinkedBlockingQueue<>();
  final List<MessageParams> shown = new CopyOnWriteArrayList<>();
  final List<MessageParams> logged = new CopyOnWriteArrayList<>();
  final List<ShowDocumentParams> documentsShown = new CopyOnWriteArrayList<>();
  final BlockingQueue<ProgressParams> progress = new LinkedBlockingQueue<>();
  final List<WorkDoneProgressCreateParams> progressCreated = new CopyOnWriteArrayList<>();
  final List<RegistrationParams> registrations = new CopyOnWriteArrayList<>();
  final java.util.concurrent.Semaphore codeLensRefreshes = new java.util.concurrent.Semaphore(0);

  @Override
  public void telemetryEvent(Object object) {}

  @Override
  public void publishDiagnostics(PublishDiagnosticsParams params) {
    diagnostics.add(params);
  }

  @Override
  public void showMessage(MessageParams params) {
    shown.add(params);
  }

  /** The title of the action the "user" picks when the server asks (null: the question is dismissed). */
  volatile String answer;
  final List<ShowMessageRequestParams> asked = new java.util.concurrent.CopyOnWriteArrayList<>();

  @Override
  public CompletableFuture<MessageActionItem> showMessageRequest(ShowMessageRequestParams params) {
    asked.add(params);
    return CompletableFuture.completedFuture(answer == null ? null : new MessageActionItem(answer));
  }

  @Override
  public void logMessage(MessageParams params) {
    logged.add(params);
  }

  @Override
  public CompletableFuture<ShowDocumentResult> showDocument(ShowDocumentParams params) {
    documentsShown.add(params);
    return CompletableFuture.completedFuture(new ShowDocumentResult(true));
  }

  @Override
  public CompletableFuture<Void> createProgress(WorkDoneProgressCreateParams params) {
    progressCreated.add(params);
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public void notifyProgress(ProgressParams params) {
    progress.add(params);
  }

  @Override
  public CompletableFuture<Void> registerCapability(RegistrationParams params) {
    registrations.add(params);
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<Void> refreshCodeLenses() {
    codeLensRefreshes.release();
    return CompletableFuture.completedFuture(null);
  }

  /** The next publication for {@code uri} that satisfies {@code condition}; earlier ones are skipped. */
  PublishDiagnosticsParams awaitDiagnostics(String uri, Predicate<PublishDiagnosticsParams> condition)
      throws InterruptedException {
    return awaitDiagnostics(uri, condition, WAIT_SECONDS);
  }

  /** As {@link #awaitDiagnostics(String, Predicate)}, for work known to be long (a real 1 MB analysis). */
  PublishDiagnosticsParams awaitDiagnostics(String uri, Predicate<PublishDiagnosticsParams> condition, long seconds)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      PublishDiagnosticsParams next = diagnostics.poll(1, TimeUnit.SECONDS);
      if (next != null && next.getUri().equals(uri) && condition.test(next)) {
        return next;
      }
    }
    throw new AssertionError("no diagnostics for " + uri + " matching the condition within " + seconds + " s");
  }

  /** The next $/progress of the job that began with {@code title}; other jobs' (the project's scan) are skipped. */
  ProgressParams awaitProgressBegin(String title) throws InterruptedException {
    while (true) {
      ProgressParams next = awaitProgress();
      if (next.getValue().getLeft() instanceof org.eclipse.lsp4j.WorkDoneProgressBegin begin
          && title.equals(begin.getTitle())) {
        return next;
      }
    }
  }

  /** The next $/progress for {@code token}. */
  ProgressParams awaitProgress(org.eclipse.lsp4j.jsonrpc.messages.Either<String, Integer> token)
      throws InterruptedException {
    while (true) {
      ProgressParams next = awaitProgress();
      if (next.getToken().equals(token)) {
        return next;
      }
    }
  }

  ProgressParams awaitProgress() throws InterruptedException {
    ProgressParams next = progress.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    if (next == null) {
      throw new AssertionError("no $/progress within " + WAIT_SECONDS + " s");
    }
    return next;
  }
}
