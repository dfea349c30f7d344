package dev.racetriage.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where racetriage keeps its files in a project: {@code .racetriage/triage.db} (local, rebuilt by triage runs) and
 * {@code .racetriage/trusted-benign.json} (the team's marks, committed). A {@code .racetriage/.gitignore} keeps the
 * database and its WAL files out of version control while letting the marks file in.
 */
public final class ProjectLayout {
  public static final String DIRECTORY = ".racetriage";
  public static final String DATABASE_FILE = "triage.db";
  static final String GITIGNORE =
      "# Written by racetriage. The database is local (rebuilt by 'racetriage triage');\n"
          + "# commit trusted-benign.json, the team's marks.\n"
          + "*.db\n*.db-wal\n*.db-shm\n*.db-journal\n*.tmp\n"
          + "# held by the running triage or daemon\n"
          + "triage.lock\n"
          + "# the logs and reports of the last run's test JVMs\n"
          + "work/\n";

  private ProjectLayout() {}

  public static Path directory(Path projectDir) {
    return projectDir.resolve(DIRECTORY);
  }

  public static Path defaultDatabase(Path projectDir) {
    return directory(projectDir).resolve(DATABASE_FILE);
  }

  /** Writes {@code .racetriage/.gitignore} if the directory holds the database and has none yet. */
  static void ignoreDatabaseInGit(Path projectDir, Path dbFile) {
    if (directory(projectDir).equals(dbFile.getParent())) {
      ignoreLocalFilesInGit(projectDir);
    }
  }

  /** Writes {@code .racetriage/.gitignore} if the directory exists and has none yet. */
  public static void ignoreLocalFilesInGit(Path projectDir) {
    Path gitignore = directory(projectDir).resolve(".gitignore");
    if (!Files.isDirectory(gitignore.getParent()) || Files.exists(gitignore)) {
      return;
    }
    try {
      Files.writeString(gitignore, GITIGNORE);
    } catch (IOException e) {
      // Only a convenience: the store works without it, and the user can add it.
    }
  }
}
