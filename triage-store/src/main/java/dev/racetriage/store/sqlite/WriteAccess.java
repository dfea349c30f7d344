package dev.racetriage.store.sqlite;

import dev.racetriage.store.DatabaseNotWritableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Says why SQLite could not write a database file, in terms a user can act on. SQLite reports a read-only file as
 * READONLY only once something is written, and a directory where it cannot create the {@code -wal}/{@code -shm}
 * files as CANTOPEN, which also means other things; the file system is asked which one it is.
 */
public final class WriteAccess {
  private WriteAccess() {}

  /** The read-only error that {@code error} on {@code file} amounts to, if it is one. */
  public static Optional<DatabaseNotWritableException> readOnly(Path file, SQLException error) {
    if (SqliteErrors.isReadOnly(error)) {
      String why = whyNotWritable(file).orElse("SQLite: " + error.getMessage());
      return Optional.of(DatabaseNotWritableException.readOnly(file, why, error));
    }
    if (SqliteErrors.isCantOpen(error)) {
      return whyNotWritable(file).map(why -> DatabaseNotWritableException.readOnly(file, why, error));
    }
    return Optional.empty();
  }

  /**
   * What keeps this process from writing {@code file}, if the file system says so. Asks the OS (access(2)), so it
   * holds for root too: root may write a file without write permission, but not an immutable one or one on a
   * read-only mount.
   */
  public static Optional<String> whyNotWritable(Path file) {
    Path directory = file.toAbsolutePath().getParent();
    if (onReadOnlyFileSystem(directory)) {
      return Optional.of("the file system holding " + directory + " is mounted read-only");
    }
    if (Files.exists(file) && !Files.isWritable(file)) {
      return Optional.of("the file is not writable by this user");
    }
    for (String suffix : new String[] {"-wal", "-shm"}) {
      Path companion = Path.of(file + suffix);
      if (Files.exists(companion) && !Files.isWritable(companion)) {
        return Optional.of(companion.getFileName() + ", SQLite's companion file beside it, is not writable");
      }
    }
    if (directory != null && Files.isDirectory(directory) && !Files.isWritable(directory)) {
      return Optional.of("its directory " + directory + " is not writable, and SQLite must create "
          + file.getFileName() + "-wal and " + file.getFileName() + "-shm there");
    }
    return Optional.empty();
  }

  private static boolean onReadOnlyFileSystem(Path directory) {
    try {
      return directory != null && Files.exists(directory) && Files.getFileStore(directory).isReadOnly();
    } catch (IOException e) {
      return false;
    }
  }
}
