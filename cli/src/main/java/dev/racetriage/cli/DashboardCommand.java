package dev.racetriage.cli;

import dev.racetriage.dashboard.DashboardOptions;
import dev.racetriage.dashboard.DashboardServer;
import dev.racetriage.dashboard.DashboardStartException;
import dev.racetriage.store.StoreException;
import dev.racetriage.store.TriageStore;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
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

  @Option(names = "--db", paramLabel = "FILE", description = "Triage database (default: ./.racetriage/triage.db)")
  Path db;

  @Option(names = "--project", paramLabel = "DIR",
      description = "Project whose sources the race pages show (default: the directory holding .racetriage/)")
  Path project;

  @Option(names = "--port", paramLabel = "PORT", description = "HTTP port (default: ${DEFAULT-VALUE})")
  int port = 7070;

  @Option(names = "--bind", paramLabel = "ADDRESS", description = "Address to bind (default: ${DEFAULT-VALUE})")
  String bind = "127.0.0.1";

  @Option(names = "--token", paramLabel = "TOKEN",
      description = "Require this token for every change (required when --bind is not a loopback address)")
  String token;

  /** Released by the shutdown hook (Ctrl-C) or by interrupting the command's thread. */
  private final CountDownLatch stopped = new CountDownLatch(1);

  @Override
  public Integer call() {
    Path dbFile = (db != null ? db : Path.of(TriageStore.DIRECTORY, TriageStore.DATABASE_FILE)).toAbsolutePath();
    if (!Files.isRegularFile(dbFile)) {
      throw new UserError(
          "no triage database at " + dbFile + ": run 'racetriage triage' in the project first, or pass --db FILE", 1);
    }
    Path projectDir = project != null ? project.toAbsolutePath() : projectOf(dbFile);
    if (!Files.isDirectory(projectDir)) {
      throw new UserError("the project directory " + projectDir + " does not exist (--project)", 1);
    }
    TriageStore store = open(dbFile, projectDir);
    try (store; DashboardServer server = start(store)) {
      PrintWriter out = spec.commandLine().getOut();
      out.println("racetriage dashboard for " + projectDir + " on " + server.url()
          + (token != null ? " (changes need the token: open " + server.url() + "login)" : ""));
      out.println("Press Ctrl-C to stop.");
      out.flush();
      Thread hook = new Thread(stopped::countDown, "racetriage-dashboard-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      try {
        stopped.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        removeQuietly(hook);
      }
    }
    return 0;
  }

  private DashboardServer start(TriageStore store) {
    try {
      return DashboardServer.start(store, new DashboardOptions(bind, port, token, DashboardOptions.DEFAULT_POLL));
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage(), 2, e);
    } catch (DashboardStartException e) {
      throw new UserError(e.getMessage(), 1, e);
    }
  }

  private static TriageStore open(Path dbFile, Path projectDir) {
    try {
      return TriageStore.open(dbFile, projectDir);
    } catch (StoreException e) {
      throw new UserError(oneLine(e.getMessage()), 1, e);
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

  private static String oneLine(String message) {
    return message == null ? "cannot open the triage database" : message.replaceAll("\\s*\\R\\s*", " ");
  }

  private static void removeQuietly(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException alreadyShuttingDown) {
      // The JVM is exiting (Ctrl-C): the hook has run or is running; nothing to undo.
    }
  }
}
