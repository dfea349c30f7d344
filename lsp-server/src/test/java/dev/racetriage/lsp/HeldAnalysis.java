package dev.racetriage.lsp;

import dev.racetriage.lsp.analysis.StaticCandidates;
import dev.racetriage.lsp.analysis.StaticCandidatesFactory;
import dev.racetriage.lsp.documents.DocumentSnapshot;
import dev.racetriage.lsp.findings.FieldFinding;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.jsonrpc.CancelChecker;

/**
 * The real prefilter behind a gate the test closes and opens. An analysis that reaches the closed gate stays there —
 * still running, as far as the server can tell — until the test opens the gate or the server cancels the analysis
 * (which the gate notices, as the real analysis would, at its next cancellation check). With the gate closed, a
 * request that waits for an analysis never answers; one that answers proves it did not wait.
 */
final class HeldAnalysis implements StaticCandidates {
  private final Object lock = new Object();
  private volatile StaticCandidates real = StaticCandidates.NONE;
  // guarded by lock
  private boolean closed;
  private final Set<Integer> waiting = new HashSet<>();
  private final Set<Integer> entered = new HashSet<>();
  private final Set<Integer> cancelled = new HashSet<>();

  /** The factory to start the server with: the real prefilter, behind this gate. */
  StaticCandidatesFactory factory() {
    return (workspace, settings, log, progress) -> {
      real = StaticCandidatesFactory.PREFILTER.create(workspace, settings, log, progress);
      return this;
    };
  }

  void close() {
    synchronized (lock) {
      closed = true;
    }
  }

  void open() {
    synchronized (lock) {
      closed = false;
      lock.notifyAll();
    }
  }

  @Override
  public List<FieldFinding> analyse(DocumentSnapshot document, CancelChecker cancel) {
    pass(document, cancel);
    return real.analyse(document, cancel);
  }

  @Override
  public List<FieldFinding> preview(DocumentSnapshot document, CancelChecker cancel) {
    pass(document, cancel);
    return real.preview(document, cancel);
  }

  @Override
  public boolean ready(Path file) {
    return real.ready(file);
  }

  @Override
  public void prepare(Runnable whenReady) {
    real.prepare(whenReady);
  }

  @Override
  public void fileChanged(Path file) {
    real.fileChanged(file);
  }

  private void pass(DocumentSnapshot document, CancelChecker cancel) {
    synchronized (lock) {
      if (!closed) {
        return;
      }
      waiting.add(document.version());
      entered.add(document.version());
      lock.notifyAll();
      try {
        while (closed) {
          cancel.checkCanceled();
          lock.wait(10); // cancellation has no signal of its own: look again soon
        }
      } catch (CancellationException e) {
        cancelled.add(document.version());
        throw e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CancellationException("interrupted");
      } finally {
        waiting.remove(document.version());
        lock.notifyAll();
      }
    }
  }

  /** Waits until an analysis of {@code version} is held at the gate. */
  void awaitHeld(int version) throws InterruptedException {
    await(() -> waiting.contains(version), "no analysis of version " + version + " reached the closed gate");
  }

  /** Waits until the server cancelled the held analysis of {@code version}. */
  void awaitCancelled(int version) throws InterruptedException {
    await(() -> cancelled.contains(version), "the analysis of version " + version + " was not cancelled");
  }

  /** Whether an analysis of {@code version} is held at the gate now. */
  boolean holds(int version) {
    synchronized (lock) {
      return waiting.contains(version);
    }
  }

  boolean everEntered(int version) {
    synchronized (lock) {
      return entered.contains(version);
    }
  }

  private void await(java.util.function.BooleanSupplier condition, String failure) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RecordingClient.WAIT_SECONDS);
    synchronized (lock) {
      while (!condition.getAsBoolean()) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          throw new AssertionError(failure + " within " + RecordingClient.WAIT_SECONDS + " s");
        }
        lock.wait(left);
      }
    }
  }
}
