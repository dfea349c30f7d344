package dev.racetriage.lsp.triage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The cheapest "did the store change?" test there is: the size and modification time of the database and of its
 * write-ahead log. In WAL mode every commit (the daemon's, the dashboard's, ours) appends to {@code -wal} and every
 * checkpoint writes the database file, so any commit changes the signature without a query.
 */
final class StoreSignature {
  private StoreSignature() {}

  static long of(Path database) {
    long signature = 17;
    for (Path file : new Path[] {database, Path.of(database + "-wal")}) {
      try {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        signature = 31 * signature + attributes.size();
        signature = 31 * signature + attributes.lastModifiedTime().toMillis() * 1_000_000L
            + attributes.lastModifiedTime().toInstant().getNano() % 1_000_000;
      } catch (IOException missing) {
        signature = 31 * signature - 1;
      }
    }
    return signature;
  }
}
