package dev.racetriage.lsp.daemon;

import dev.racetriage.lsp.lifecycle.ClientLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.lsp4j.MessageType;

/**
 * Starts the triage daemon for the workspace when the user asks for it ({@code racetriage.startDaemon}). The daemon
 * is a separate process writing the store; the server only reads it, so a daemon that cannot start, or stops, costs
 * the verdict updates and is said once — it never takes the language server down.
 */
public final class DaemonStarter implements AutoCloseable {
  private final ClientLog log;
  private Process process;

  public DaemonStarter(ClientLog log) {
    this.log = log;
  }

  /** Starts {@code command + workspace} unless a daemon this server started is still running. */
  public synchronized void start(List<String> command, Path workspace, Path logFile) {
    if (process != null && process.isAlive()) {
      return;
    }
    List<String> full = new ArrayList<>(command);
    full.add(workspace.toString());
    try {
      Files.createDirectories(logFile.getParent());
      ProcessBuilder builder = new ProcessBuilder(full)
          .directory(workspace.toFile())
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
      // stdin of the server is the protocol: the daemon must not inherit it
      builder.redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
      Process started = builder.start();
      process = started;
      log.info("racetriage: started the daemon: " + String.join(" ", full) + " (log: " + logFile + ")");
      started.onExit().thenAccept(exited -> reportExit(exited, full, logFile));
    } catch (IOException | RuntimeException e) {
      log.showOnce("daemon-start", MessageType.Warning,
          "racetriage: could not start the daemon (" + String.join(" ", full) + "): " + e.getMessage()
              + ". Verdicts already in the store are still shown; start 'racetriage daemon' yourself or fix"
              + " racetriage.daemonCommand.");
    }
  }

  private void reportExit(Process exited, List<String> command, Path logFile) {
    int code = exited.exitValue();
    if (code == 0 || exited != currentProcess()) {
      return;
    }
    log.showOnce("daemon-exit", MessageType.Warning,
        "racetriage: the daemon stopped with exit code " + code + ": " + lastLine(logFile)
            + " (command: " + String.join(" ", command) + "; full log: " + logFile + ")");
  }

  private synchronized Process currentProcess() {
    return process;
  }

  private static String lastLine(Path logFile) {
    try {
      List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
      for (int i = lines.size() - 1; i >= 0; i--) {
        if (!lines.get(i).isBlank()) {
          return lines.get(i).trim();
        }
      }
    } catch (IOException e) {
      return "(its log could not be read: " + e.getMessage() + ")";
    }
    return "(no output)";
  }

  private static java.io.File nullDevice() {
    return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
  }

  public synchronized boolean running() {
    return process != null && process.isAlive();
  }

  /** Stops the daemon this server started (not one the user started). */
  @Override
  public synchronized void close() {
    if (process != null && process.isAlive()) {
      process.destroy();
    }
    process = null;
  }
}
