package dev.racetriage.lsp.lifecycle;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;

/**
 * The LSP lifecycle: requests before {@code initialize} get ServerNotInitialized, requests after {@code shutdown} get
 * InvalidRequest, and {@code exit} ends the server with 0 if {@code shutdown} came first and 1 otherwise (the spec's
 * rule, so a client can tell an orderly stop from a crash).
 */
public final class ServerLifecycle {
  public enum State { STARTING, INITIALIZED, SHUT_DOWN, EXITED }

  private final AtomicReference<State> state = new AtomicReference<>(State.STARTING);
  private final CompletableFuture<Integer> exitCode = new CompletableFuture<>();

  public State state() {
    return state.get();
  }

  public void initialized() {
    state.compareAndSet(State.STARTING, State.INITIALIZED);
  }

  public void shutdown() {
    state.set(State.SHUT_DOWN);
  }

  public void exit() {
    State before = state.getAndSet(State.EXITED);
    exitCode.complete(before == State.SHUT_DOWN ? 0 : 1);
  }

  /** Completes with the process exit code when the client sends {@code exit}. */
  public CompletableFuture<Integer> exitCode() {
    return exitCode;
  }

  /** The exit code for a client that went away without {@code exit}: 0 only after an orderly shutdown. */
  public int codeWithoutExit() {
    return exitCode.getNow(state.get() == State.SHUT_DOWN ? 0 : 1);
  }

  /** Throws the error response a request gets when the server is not in the state to answer it. */
  public void requireRunning(String method) {
    switch (state.get()) {
      case STARTING -> throw new ResponseErrorException(new ResponseError(ResponseErrorCode.ServerNotInitialized,
          method + ": the server has not been initialized; send 'initialize' first", null));
      case SHUT_DOWN, EXITED -> throw new ResponseErrorException(new ResponseError(ResponseErrorCode.InvalidRequest,
          method + ": the server is shutting down; only 'exit' is accepted now", null));
      default -> { }
    }
  }
}
