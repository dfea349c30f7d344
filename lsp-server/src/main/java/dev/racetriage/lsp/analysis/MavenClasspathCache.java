package dev.racetriage.lsp.analysis;

import dev.racetriage.prefilter.parse.Classpath;
import dev.racetriage.prefilter.parse.ClasspathStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The Maven class path of a workspace, remembered per pom fingerprint: {@code mvn dependency:build-classpath} takes
 * 10–15 s, and a server started again on unchanged poms needs none of it. The key hashes every {@code pom.xml} of the
 * workspace (path and content); an entry is used only while every jar and directory it lists still exists, and only a
 * class path Maven gave is stored.
 */
final class MavenClasspathCache {
  private static final int DEPTH = 8;

  private final Path cacheDir;
  private final Function<Path, Classpath> maven;

  MavenClasspathCache(Path cacheDir, Function<Path, Classpath> maven) {
    this.cacheDir = cacheDir;
    this.maven = maven;
  }

  /** {@code $XDG_CACHE_HOME/racetriage/lsp-classpath}, else {@code ~/.cache/racetriage/lsp-classpath}. */
  static Path defaultDirectory() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("racetriage").resolve("lsp-classpath");
  }

  Classpath resolve(Path root) {
    String key;
    try {
      key = fingerprint(root);
    } catch (IOException e) {
      return maven.apply(root);
    }
    Path entry = cacheDir.resolve(key + ".classpath");
    if (Files.isRegularFile(entry)) {
      try {
        List<Path> entries = Files.readAllLines(entry, StandardCharsets.UTF_8).stream()
            .filter(line -> !line.isBlank()).map(Path::of).toList();
        if (entries.stream().allMatch(Files::exists)) {
          return new Classpath(entries, ClasspathStatus.MAVEN,
              "from 'mvn dependency:build-classpath', cached for these poms in " + entry);
        }
      } catch (IOException | RuntimeException e) {
        // unreadable or stale: ask Maven again, below
      }
    }
    Classpath fresh = maven.apply(root);
    if (fresh.status() == ClasspathStatus.MAVEN) {
      store(entry, fresh.entries());
    }
    return fresh;
  }

  private void store(Path entry, List<Path> entries) {
    try {
      Files.createDirectories(cacheDir);
      Path temp = Files.createTempFile(cacheDir, "classpath", ".tmp");
      Files.write(temp, entries.stream().map(Path::toString).toList(), StandardCharsets.UTF_8);
      Files.move(temp, entry, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      // no cache: the next start asks Maven again
    }
  }

  /** SHA-256 over every pom.xml (relative path and bytes), in path order, outside build output and VCS folders. */
  static String fingerprint(Path root) throws IOException {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    sha.update(root.toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8));
    try (Stream<Path> files = Files.walk(root, DEPTH)) {
      for (Path pom : files.filter(p -> p.getFileName() != null && p.getFileName().toString().equals("pom.xml"))
          .filter(p -> Stream.of("target", ".git", "node_modules", ".racetriage")
              .noneMatch(skip -> root.relativize(p).toString().contains(skip + "/")))
          .sorted().toList()) {
        sha.update(root.relativize(pom).toString().getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(Files.readAllBytes(pom));
      }
    }
    return HexFormat.of().formatHex(sha.digest());
  }
}
