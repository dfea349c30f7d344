package dev.racetriage.lsp;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import dev.racetriage.lsp.jsonrpc.RobustLauncherBuilder;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * Connects a {@link RacetriageLanguageServer} to a client over a pair of streams (stdio, a socket, or test pipes) and
 * waits for it to end. The result is the process exit code: 0 after shutdown + exit, 1 for an exit without shutdown
 * or a client that went away.
 */
public final class LanguageServerLauncher {
  private static final Logger LOG = Logger.getLogger(LanguageServerLauncher.class.getName());

  private LanguageServerLauncher() {}

  /** A running connection: the server, and the exit code once the client is done. */
  public record Connection(RacetriageLanguageServer server, CompletableFuture<Integer> exitCode) {}

  public static Connection start(RacetriageLanguageServer server, InputStream in, OutputStream out) {
    ExecutorService rpc = Executors.newCachedThreadPool(runnable -> {
      Thread thread = new Thread(runnable, "racetriage-jsonrpc");
      thread.setDaemon(true);
      return thread;
    });
    Launcher<LanguageClient> launcher = new RobustLauncherBuilder()
        .setLocalService(server)
        .setRemoteInterface(LanguageClient.class)
        .setInput(in)
        .setOutput(out)
        .setExecutorService(rpc)
        .create();
    server.connect(launcher.getRemoteProxy());
    Future<Void> listening = launcher.startListening();
    CompletableFuture<Integer> exitCode = new CompletableFuture<>();
    server.lifecycle().exitCode().thenAccept(exitCode::complete);
    Thread watcher = new Thread(() -> {
      try {
        listening.get();
      } catch (ExecutionException e) {
        LOG.log(Level.WARNING, "the connection to the client failed", e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (java.util.concurrent.CancellationException e) {
        // closed by us after exit
      }
      // the client closed the stream without 'exit': stop like exit would, with the spec's code
      exitCode.complete(server.lifecycle().codeWithoutExit());
    }, "racetriage-connection-watch");
    watcher.setDaemon(true);
    watcher.start();
    exitCode.whenComplete((code, error) -> {
      listening.cancel(true);
      rpc.shutdownNow();
    });
    return new Connection(server, exitCode);
  }

  /** Serves on standard input and output; everything else the JVM prints goes to standard error. */
  public static int stdio(RacetriageLanguageServer server) {
    InputStream in = System.in;
    PrintStream out = System.out;
    // a stray System.out.println anywhere (a library, JDT) would corrupt the protocol stream
    System.setOut(new PrintStream(System.err, true));
    return await(start(server, in, out));
  }

  /** Listens on 127.0.0.1:port for one client (debugging: attach a client to a server started in a debugger). */
  public static int socket(RacetriageLanguageServer server, int port) throws IOException {
    try (ServerSocket listener = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      System.err.println("racetriage lsp: listening on 127.0.0.1:" + listener.getLocalPort());
      try (Socket socket = listener.accept()) {
        return await(start(server, socket.getInputStream(), socket.getOutputStream()));
      }
    }
  }

  private static int await(Connection connection) {
    try {
      return connection.exitCode().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    } catch (ExecutionException e) {
      return 1;
    }
  }
}
