package dev.racetriage.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A main class of the test classpath run in its own JVM: a real second process holding a lock. {@link #awaitLine}
 * waits for the child to say it holds it (no sleeping, no timing); {@link #close} kills it as {@code kill -9} would.
 */
final class ChildJvm implements AutoCloseable {
  private final Process process;
  private final BufferedReader stdout;

  private ChildJvm(Process process) {
    this.process = process;
    this.stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  static ChildJvm start(Class<?> main, Path stderr, String... args) throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>(List.of(
        java.toString(), "-XX:TieredStopAtLevel=1", "-Xshare:auto",
        "-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(List.of(args));
    return new ChildJvm(new ProcessBuilder(command).redirectError(stderr.toFile()).start());
  }

  /** Reads the child's output until {@code expected}; fails if the child ends first. */
  void awaitLine(String expected) throws IOException {
    for (String line; (line = stdout.readLine()) != null; ) {
      if (line.equals(expected)) {
        return;
      }
    }
    throw new AssertionError("the child process ended without printing '" + expected + "'");
  }

  /** Closes the child's stdin: the children here take that as the signal to let go and exit normally. */
  void closeStdin() throws IOException {
    process.getOutputStream().close();
  }

  /** Waits for the child to end by itself and returns its exit status. */
  int awaitExit() throws InterruptedException {
    return process.waitFor();
  }

  long pid() {
    return process.pid();
  }

  /** Kills the child without letting it clean up, and waits until it is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly().waitFor();
  }

  @Override
  public void close() throws InterruptedException {
    kill();
  }
}
