package dev.racetriage.cli;

import dev.racetriage.store.engine.StoreLocation;
import dev.racetriage.dashboard.DashboardOptions;
import dev.racetriage.dashboard.DashboardServer;
import dev.racetriage.dashboard.DashboardStartException;
import dev.racetriage.store.TriageStore;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
    name = "dashboard",
    mixinStandardHelpOptions = true,
    description = {
      "Serve the team triage dashboard.",
      "Verdict counts, the race table, the evidence per race, and triage actions (mark trusted-benign,",
      "reopen, comment) with an audit log."
    })
final class DashboardCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--db", paramLabel = StoreLocationOption.LABEL, converter = StoreLocationOption.class,
      description = "Triage store: an SQLite file (default: ./.racetriage/triage.db) or the team's "
          + "jdbc:postgresql://host:port/database?user=NAME (password from $RACETRIAGE_DB_PASSWORD or ~/.pgpass)")
  StoreLocation db;

  @Option(names = "--project", paramLabel = "DIR",
      description = "Project whose sources the race pages show (default: the directory holding .racetriage/)")
  Path project;

  @Option(names = "--port", paramLabel = "PORT", description = "HTTP port (default: ${DEFAULT-VALUE})")
  int port = 7070;

  @Option(names = "--bind", paramLabel = "ADDRESS", description = "Address to bind (default: ${DEFAULT-VALUE})")
  String bind = "127.0.0.1";

  @Option(names = "--token", paramLabel = "TOKEN", defaultValue = "${env:RACETRIAGE_DASHBOARD_TOKEN}",
      description = {"Require this token for every change (required when --bind is not a loopback address).",
        "Default: $RACETRIAGE_DASHBOARD_TOKEN, which keeps the token out of the process list."})
  String token;

  /** Released by the shutdown hook (Ctrl-C) or by interrupting the command's thread. */
  private final CountDownLatch stopped = new CountDownLatch(1);
  /** Released once the server and the store are closed, so the shutdown hook lets the JVM exit only then. */
  private final CountDownLatch closed = new CountDownLatch(1);

  @Override
  public Integer call() {
    StoreLocation location = db != null ? db
        : StoreLocation.file(Path.of(TriageStore.DIRECTORY, TriageStore.DATABASE_FILE));
    Path dbFile = location.fileOrNull();
    if (dbFile != null && !Files.isRegularFile(dbFile)) {
      throw new UserError(
          "no triage database at " + dbFile + ": run 'racetriage triage' in the project first, or pass --db FILE", 1);
    }
    // A server's store names no project: the sources shown are the --project's (default: the working directory).
    Path projectDir = project != null ? project.toAbsolutePath()
        : dbFile != null ? projectOf(dbFile) : Path.of("").toAbsolutePath();
    if (!Files.isDirectory(projectDir)) {
      throw new UserError("the project directory " + projectDir + " does not exist (--project)", 1);
    }
    boolean interrupted = false;
    try {
      interrupted = serve(location, projectDir);
    } finally {
      closed.countDown();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }

  /**
   * Serves until Ctrl-C or an interrupt; returns whether it was interrupted. Closes the server and its store. The
   * database is read read-only (serving writes nothing to it, and a corrupt one refuses to start); the server opens it
   * for writing at the first triage action, which also imports the marks file as every writing command does.
   */
  private boolean serve(StoreLocation location, Path projectDir) {
    boolean interrupted = false;
    try (DashboardServer server = start(location, projectDir)) {
      PrintWriter out = spec.commandLine().getOut();
      out.println("racetriage dashboard for " + projectDir + " on " + server.url()
          + (token != null ? " (changes need the token: open " + server.url() + "login)" : ""));
      out.println("Press Ctrl-C to stop.");
      out.flush();
      Thread hook = new Thread(this::stopAndWait, "racetriage-dashboard-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      try {
        stopped.await();
      } catch (InterruptedException e) {
        // Stop serving; the flag is restored after the server has shut down (Jetty's stop would abort on it).
        interrupted = true;
      } finally {
        removeQuietly(hook);
      }
    }
    return interrupted;
  }

  private void stopAndWait() {
    stopped.countDown();
    try {
      closed.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private DashboardServer start(StoreLocation location, Path projectDir) {
    try {
      return DashboardServer.open(
          location, projectDir, new DashboardOptions(bind, port, token, DashboardOptions.DEFAULT_POLL));
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage(), 2, e);
    } catch (DashboardStartException e) {
      throw new UserError(e.getMessage(), 1, e);
    }
  }

  /** {@code <project>/.racetriage/triage.db} → {@code <project>}; a database elsewhere → the working directory. */
  static Path projectOf(Path dbFile) {
    Path parent = dbFile.getParent();
    if (parent != null && parent.getFileName() != null
        && parent.getFileName().toString().equals(TriageStore.DIRECTORY) && parent.getParent() != null) {
      return parent.getParent();
    }
    return Path.of("").toAbsolutePath();
  }

  private static void removeQuietly(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException alreadyShuttingDown) {
      // The JVM is exiting (Ctrl-C): the hook has run or is running; nothing to undo.
    }
  }
}
