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
 * Runs a child process with a deadline. Output (stdout and stderr merged) is pumped into a {@link CappedLog}, so a chatty
 * build or test never blocks on a full pipe and never fills the disk; on timeout the process and all its descendants
 * are killed.
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
        .redirectErrorStream(true);
    builder.environment().putAll(environment);
    long start = System.nanoTime();
    Process process = builder.start();
    Thread pump = pump(process.getInputStream(), log, "racetriage-output-" + process.pid());
    boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (!finished) {
      killTree(process);
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
    pump.join(PUMP_DRAIN_MILLIS); // a grandchild that outlived the kill may hold the pipe open: do not wait for it
    return new Outcome(finished ? process.exitValue() : -1, !finished, elapsed, log);
  }

  private static final long PUMP_DRAIN_MILLIS = 10_000;

  /** Starts a daemon thread that copies {@code output} into a capped log at {@code log} until the stream ends. */
  public static Thread pump(java.io.InputStream output, Path log, String name) throws IOException {
    CappedLog capped = CappedLog.standard(log); // created here, so the log exists as soon as the process does
    Thread pump = new Thread(() -> {
      try {
        capped.copyFrom(output);
      } catch (IOException e) {
        // the process went away, or the log cannot be written: the outcome still says how it ended
      }
    }, name);
    pump.setDaemon(true);
    pump.start();
    return pump;
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
