package dev.racetriage.lsp.lifecycle;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;
import org.eclipse.lsp4j.jsonrpc.CancelChecker;
import org.eclipse.lsp4j.jsonrpc.CompletableFutures;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;

/**
 * Runs every request off the JSON-RPC reader thread (the architecture forbids analysis work on the request thread)
 * with the same rules: lifecycle checks, {@code $/cancelRequest} reaching the work through a {@link CancelChecker}, and
 * an unexpected exception turned into an InternalError response that names the request — never a dead connection.
 */
public final class RequestRunner {
  private final ServerLifecycle lifecycle;
  private final ExecutorService pool;
  private final ClientLog log;

  public RequestRunner(ServerLifecycle lifecycle, ExecutorService pool, ClientLog log) {
    this.lifecycle = lifecycle;
    this.pool = pool;
    this.log = log;
  }

  public <T> CompletableFuture<T> run(String method, Function<CancelChecker, T> work) {
    try {
      lifecycle.requireRunning(method);
    } catch (ResponseErrorException e) {
      return CompletableFuture.failedFuture(e);
    }
    return CompletableFutures.computeAsync(pool, cancel -> {
      try {
        return work.apply(cancel);
      } catch (CancellationException | ResponseErrorException e) {
        throw e;
      } catch (RuntimeException | LinkageError e) {
        log.error(method + " failed", e);
        throw new ResponseErrorException(new ResponseError(ResponseErrorCode.InternalError,
            method + " failed: " + e + ". The server keeps running; the log has the stack trace.", null));
      }
    });
  }
}
