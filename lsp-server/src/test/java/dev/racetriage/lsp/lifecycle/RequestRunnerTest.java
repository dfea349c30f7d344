package dev.racetriage.lsp.lifecycle;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code $/cancelRequest}: LSP4J cancels the future a request returned; the runner must turn that into the work's
 * {@code CancelChecker} firing. (Since requests answer from published findings, no request of the server is long
 * enough to cancel reliably over JSON-RPC; a big file's code action parse is the longest, and it checks the same
 * checker.)
 */
class RequestRunnerTest {
  private final ExecutorService pool = QuietExecutors.fixed("racetriage-request-test", 1);

  @AfterEach
  void stop() {
    pool.shutdown();
  }

  @Test
  void cancellingTheRequestStopsItsWork() throws Exception {
    ServerLifecycle lifecycle = new ServerLifecycle();
    lifecycle.initialized();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch stopped = new CountDownLatch(1);
    CompletableFuture<Object> request = new RequestRunner(lifecycle, pool, new ClientLog()).run("test/endless",
        cancel -> {
          started.countDown();
          try {
            while (true) {
              cancel.checkCanceled();
              Thread.onSpinWait();
            }
          } catch (CancellationException e) {
            stopped.countDown();
            throw e;
          }
        });
    assertTrue(started.await(60, TimeUnit.SECONDS));
    request.cancel(true); // what LSP4J does on $/cancelRequest
    assertTrue(stopped.await(60, TimeUnit.SECONDS), "the work saw the cancellation and stopped");
  }
}
