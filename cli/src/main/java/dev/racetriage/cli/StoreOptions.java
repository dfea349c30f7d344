package dev.racetriage.cli;

import dev.racetriage.store.engine.StoreLocation;
import dev.racetriage.store.TriageStore;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --project} and {@code --db}, for the commands that open a project's store by hand (mark, marks sync). */
final class StoreOptions {
  @Option(names = "--project", paramLabel = "DIR", description = "Project directory (default: .)")
  Path project = Path.of(".");

  @Option(names = "--db", paramLabel = StoreLocationOption.LABEL, converter = StoreLocationOption.class,
      description = StoreLocationOption.DESCRIPTION)
  StoreLocation db;

  Path projectDir() {
    return project.toAbsolutePath().normalize();
  }

  StoreLocation location() {
    return db != null ? db : StoreLocation.file(TriageStore.defaultDatabase(projectDir()));
  }
}
