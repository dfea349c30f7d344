package dev.racetriage.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/** Serves {@code racetriage dashboard} on a free port for the length of a check, as a user runs it. */
final class DashboardServing {
  private DashboardServing() {}

  interface WhileServing {
    void check(String banner) throws Exception;
  }

  /**
   * Runs {@code racetriage dashboard --db DB --port 0} on a thread, gives {@code whileServing} its banner line, then
   * interrupts it (Ctrl-C) and returns its exit code once the thread has ended.
   */
  static int serveUntilStopped(Path db, WhileServing whileServing) throws Exception {
    CommandLine cli = RacetriageCommand.commandLine();
    PipedLines out = new PipedLines();
    cli.setOut(out.writer());
    CompletableFuture<Integer> exit = new CompletableFuture<>();
    Thread thread = new Thread(() -> exit.complete(cli.execute("dashboard", "--db", db.toString(), "--port", "0")));
    thread.start();
    try {
      whileServing.check(out.awaitLineContaining("http://"));
    } finally {
      thread.interrupt();
    }
    int code = exit.get(30, TimeUnit.SECONDS);
    thread.join(10_000);
    assertFalse(thread.isAlive());
    return code;
  }

  /** Collects what the command prints so the test can wait for the banner line. */
  static final class PipedLines {
    private final StringWriter buffer = new StringWriter();
    private final PrintWriter writer = new PrintWriter(buffer, true) {
      @Override
      public void flush() {
        super.flush();
        synchronized (PipedLines.this) {
          PipedLines.this.notifyAll();
        }
      }
    };

    PrintWriter writer() {
      return writer;
    }

    synchronized String awaitLineContaining(String text) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (true) {
        for (String line : buffer.toString().split("\n")) {
          if (line.contains(text)) {
            return line;
          }
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("the dashboard printed no line with " + text + ": " + buffer);
        }
        wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
      }
    }
  }
}
