package dev.racetriage.runner.fork;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.racetriage.runner.process.ExternalCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A running trial server (the launcher's {@code --serve} mode): one JVM that runs its test once per command. Each
 * {@link #run} writes {@code run HEURISTIC SEED} to its stdin and waits for the answer line on its stdout; a run
 * that does not answer in time is a hang, and the JVM and its descendants are killed. A JVM that ends mid-run
 * (a test calling {@code System.exit}, a crash) answers {@link Reply.Ended}.
 */
public final class TrialServerProcess implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String EOF = "\u0000eof";

  /** What came back for one command. */
  public sealed interface Reply {
    /** The launcher's {@code {"event":"run",…}} line. */
    record Answer(JsonNode run) implements Reply {}

    /** No answer within the timeout: the JVM was killed. */
    record TimedOut() implements Reply {}

    /** The JVM ended before answering. */
    record Ended(int exitCode) implements Reply {}
  }

  private final Process process;
  private final Writer stdin;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final Path log;
  /** Set when the JVM's stdout ended. */
  private volatile boolean ended;

  private TrialServerProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    Thread reader = new Thread(this::pump, "racetriage-trial-server-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  static TrialServerProcess start(List<String> command, Path dir, Map<String, String> environment, Path log,
      Duration startTimeout) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
    builder.environment().putAll(environment);
    Process process = builder.start();
    ExternalCommand.pump(process.getErrorStream(), log, "racetriage-trial-server-log-" + process.pid());
    TrialServerProcess server = new TrialServerProcess(process, log);
    JsonNode ready = server.next(startTimeout);
    if (ready == null || !"ready".equals(ready.path("event").asText())) {
      server.kill();
      throw new IOException("the trial server did not start (" + (ready == null ? "no ready line" : ready) + "); "
          + "its output is in " + log + ":" + System.lineSeparator() + ExternalCommand.tail(log, 20));
    }
    return server;
  }

  public Path log() {
    return log;
  }

  /** Runs the test once more, after giving the agent a fresh jumble run with this heuristic and seed. */
  public Reply run(String heuristic, long seed, Duration timeout) throws InterruptedException {
    return send("run " + heuristic + " " + seed, timeout);
  }

  /**
   * Runs the selection once more without touching the agent (plain {@code run}); with a detect-mode agent the answer
   * lists the fields raced so far ({@code raced}).
   */
  public Reply repeat(Duration timeout) throws InterruptedException {
    return send("run", timeout);
  }

  private Reply send(String command, Duration timeout) throws InterruptedException {
    try {
      stdin.write(command + "\n");
      stdin.flush();
    } catch (IOException closed) {
      return ended();
    }
    JsonNode reply = next(timeout);
    if (reply == null) {
      if (ended) {
        return ended(); // stdout closed: the JVM is exiting (it may still run its shutdown hooks)
      }
      kill();
      return new Reply.TimedOut();
    }
    if (!"run".equals(reply.path("event").asText())) {
      kill();
      throw new IllegalStateException("the trial server refused '" + command + "': " + reply);
    }
    return new Reply.Answer(reply);
  }

  private Reply ended() throws InterruptedException {
    process.waitFor(10, TimeUnit.SECONDS);
    return new Reply.Ended(process.isAlive() ? -1 : process.exitValue());
  }

  /** The next protocol line, or null at the timeout or the end of the JVM's stdout. */
  private JsonNode next(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (line == null) return null;
      if (line == EOF) {
        ended = true;
        lines.add(EOF); // later calls see the end too
        return null;
      }
      if (!line.startsWith("{\"event\":")) continue; // native output written straight to fd 1
      try {
        return JSON.readTree(line);
      } catch (IOException torn) {
        // not a protocol line
      }
    }
  }

  private void pump() {
    try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        lines.add(line);
      }
    } catch (IOException e) {
      // the JVM went away
    } finally {
      lines.add(EOF);
    }
  }

  /** Kills the JVM and everything it started. */
  public void kill() throws InterruptedException {
    ExternalCommand.killTree(process);
  }

  /**
   * Asks the server to quit and waits up to {@code wait} for the JVM to exit — the agent writes its report on the way
   * out, so a detection JVM must not be killed early. Returns the exit code, or -1 when the JVM had to be killed.
   */
  public int quit(Duration wait) throws InterruptedException {
    try {
      stdin.write("quit\n");
      stdin.close();
    } catch (IOException alreadyGone) {
      // ended already
    }
    if (process.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS)) {
      return process.exitValue();
    }
    kill();
    return -1;
  }

  /** Asks the server to quit and kills it if it does not within a few seconds (a test's leftover thread). */
  @Override
  public void close() {
    try {
      try {
        stdin.write("quit\n");
        stdin.close();
      } catch (IOException alreadyGone) {
        // ended already
      }
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        kill();
      }
    } catch (InterruptedException e) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
