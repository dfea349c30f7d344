package dev.racetriage.cli;

import dev.racetriage.store.TriageStore;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --project} and {@code --db}, for the commands that open a project's store by hand (mark, marks sync). */
final class StoreOptions {
  @Option(names = "--project", paramLabel = "DIR", description = "Project directory (default: .)")
  Path project = Path.of(".");

  @Option(names = "--db", paramLabel = "FILE", description = "Triage database (default: DIR/.racetriage/triage.db)")
  Path db;

  Path projectDir() {
    return project.toAbsolutePath().normalize();
  }

  Path dbFile() {
    return db != null ? db : TriageStore.defaultDatabase(projectDir());
  }
}
