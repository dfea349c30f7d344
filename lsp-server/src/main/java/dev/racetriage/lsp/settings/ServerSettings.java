package dev.racetriage.lsp.settings;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What a user can configure, under the {@code racetriage} key of {@code initializationOptions} or of
 * {@code workspace/didChangeConfiguration} settings.
 *
 * @param database the triage database; empty means {@code <workspace>/.racetriage/triage.db}
 * @param dashboardUrl what the "open dashboard" command shows
 * @param startDaemon whether the server starts {@code daemonCommand} for the workspace (else it only reads the store a
 *     daemon that is already running writes)
 * @param daemonCommand the command line that starts the daemon; the workspace directory is appended
 * @param staticCandidates whether prefilter candidates are shown at all
 * @param mavenClasspath whether the prefilter asks Maven for the project's classpath (better bindings; the first
 *     analysis waits for {@code mvn dependency:build-classpath})
 * @param debounceMillis how long typing must pause before a changed file is analysed again
 * @param storePollMillis how often the store is asked whether it has new verdicts
 * @param author who a trusted-benign mark made from the editor is recorded as (default: the OS user)
 */
public record ServerSettings(
    Optional<Path> database,
    URI dashboardUrl,
    boolean startDaemon,
    List<String> daemonCommand,
    boolean staticCandidates,
    boolean mavenClasspath,
    long debounceMillis,
    long storePollMillis,
    String author) {

  public static final URI DEFAULT_DASHBOARD = URI.create("http://127.0.0.1:7070/");

  public ServerSettings {
    daemonCommand = List.copyOf(daemonCommand);
    debounceMillis = Math.max(0, debounceMillis);
    storePollMillis = Math.max(50, storePollMillis);
    author = author == null || author.isBlank() ? System.getProperty("user.name", "editor") : author.strip();
  }

  public static ServerSettings defaults() {
    return new ServerSettings(Optional.empty(), DEFAULT_DASHBOARD, false, List.of("racetriage", "daemon"), true, true,
        250, 1000, null);
  }

  /** The database this workspace uses. */
  public Path databaseFor(Path workspaceRoot) {
    return database.map(db -> db.isAbsolute() ? db : workspaceRoot.resolve(db))
        .orElse(workspaceRoot.resolve(".racetriage").resolve("triage.db"))
        .toAbsolutePath()
        .normalize();
  }
}
