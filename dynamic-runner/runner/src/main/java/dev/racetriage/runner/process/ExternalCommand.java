package dev.racetriage.runner.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a child process with a deadline. Output (stdout and stderr merged) goes to a log file so that a chatty build or
 * test never blocks on a full pipe; on timeout the process and all its descendants are killed.
 */
public final class ExternalCommand {
  private final List<String> command;
  private final Path workingDir;
  private final Map<String, String> environment;

  public ExternalCommand(List<String> command, Path workingDir, Map<String, String> environment) {
    this.command = List.copyOf(command);
    this.workingDir = workingDir;
    this.environment = Map.copyOf(environment);
  }

  public List<String> command() {
    return command;
  }

  /** The outcome of one run: exit code (or timeout), wall time and where the output went. */
  public record Outcome(int exitCode, boolean timedOut, Duration elapsed, Path log) {
    public boolean succeeded() {
      return !timedOut && exitCode == 0;
    }

    /** The last {@code lines} lines of the output, for error messages. */
    public String tail(int lines) {
      return ExternalCommand.tail(log, lines);
    }
  }

  /** The last {@code lines} lines of a log file, for error messages. */
  public static String tail(Path log, int lines) {
    try {
      List<String> all = Files.readAllLines(log);
      return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(output unavailable: " + e.getMessage() + ")";
    }
  }

  /**
   * Runs the command to completion or until {@code timeout}, writing its output to {@code log}.
   *
   * @throws IOException when the program cannot be started (for example, it is not installed)
   */
  public Outcome run(Duration timeout, Path log) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(workingDir.toFile())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
    builder.environment().putAll(environment);
    long start = System.nanoTime();
    Process process = builder.start();
    boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (!finished) {
      killTree(process);
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
    return new Outcome(finished ? process.exitValue() : -1, !finished, elapsed, log);
  }

  /** Kills the process and everything it started (a test JVM may fork its own children). */
  public static void killTree(Process process) throws InterruptedException {
    List<ProcessHandle> victims = new ArrayList<>();
    process.descendants().forEach(victims::add);
    victims.add(process.toHandle());
    for (ProcessHandle handle : victims) {
      handle.destroyForcibly();
    }
    process.waitFor(10, TimeUnit.SECONDS);
  }

  @Override
  public String toString() {
    return String.join(" ", command);
  }
}
