package dev.racetriage.lsp.documents;

import java.net.URI;
import java.nio.file.Path;

/** The file URIs clients send, as paths. Anything that is not a {@code file:} URI maps to a path nothing matches. */
public final class DocumentUris {
  private DocumentUris() {}

  public static Path toPath(String uri) {
    try {
      URI parsed = URI.create(uri);
      if ("file".equalsIgnoreCase(parsed.getScheme())) {
        return Path.of(parsed).toAbsolutePath().normalize();
      }
    } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
      // fall through: an untitled buffer or a malformed URI still gets a stable, non-Java path
    }
    return Path.of("/nonexistent", "non-file-uri", Integer.toHexString(uri.hashCode()));
  }

  public static String toUri(Path path) {
    return path.toAbsolutePath().normalize().toUri().toString();
  }
}
