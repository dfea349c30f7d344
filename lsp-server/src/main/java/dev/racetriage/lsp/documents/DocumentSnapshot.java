package dev.racetriage.lsp.documents;

import java.nio.file.Path;

/**
 * The text of an open document at one version. Analyses run on snapshots so that an edit arriving meanwhile never
 * changes the text under them; a result is published only if its snapshot is still the current version.
 *
 * @param uri the client's URI, exactly as sent (used to publish back)
 * @param path the file on disk the URI names
 * @param version the client's version number
 * @param text the full text
 */
public record DocumentSnapshot(String uri, Path path, int version, String text) {

  public LineIndex lines() {
    return LineIndex.of(text);
  }

  public boolean isJava() {
    return path.getFileName() != null && path.getFileName().toString().endsWith(".java");
  }
}
