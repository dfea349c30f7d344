package dev.racetriage.lsp.analysis;

import dev.racetriage.lsp.documents.DocumentSnapshot;
import dev.racetriage.lsp.findings.FieldFinding;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.eclipse.lsp4j.jsonrpc.CancelChecker;

/**
 * The static candidates the handlers see from the start, before the workspace is known: the real analysis is plugged
 * in at {@code initialize} ({@link #use}); until then open files get none.
 */
public final class WorkspaceCandidates implements StaticCandidates {
  private final Executor background;
  private volatile StaticCandidates delegate = StaticCandidates.NONE;

  /**
   * @param background where file changes are re-read: the analysis thread (not the JSON-RPC thread that reports
   *     them, nor a request thread — a saved 1 MB file is seconds of prefilter work)
   */
  public WorkspaceCandidates(Executor background) {
    this.background = background;
  }

  public void use(StaticCandidates candidates) {
    delegate = candidates;
  }

  @Override
  public List<FieldFinding> analyse(DocumentSnapshot document, CancelChecker cancel) {
    return delegate.analyse(document, cancel);
  }

  @Override
  public boolean ready(Path file) {
    return delegate.ready(file);
  }

  @Override
  public void prepare(Runnable whenReady) {
    delegate.prepare(whenReady);
  }

  @Override
  public List<FieldFinding> preview(DocumentSnapshot document, CancelChecker cancel) {
    return delegate.preview(document, cancel);
  }

  /** Re-reading a file from disk is analysis work: never on the JSON-RPC thread that reports the change. */
  @Override
  public void fileChanged(Path file) {
    StaticCandidates current = delegate;
    try {
      background.execute(() -> current.fileChanged(file));
    } catch (RejectedExecutionException shuttingDown) {
      // the server is stopping: nothing to keep up to date
    }
  }
}
