package dev.racetriage.runner.daemon;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The state of a project's build inputs — every {@code pom.xml} and every file under a {@code src/} directory — as
 * (size, modification time) per project-relative path. Cheap to take every second or two, and the difference of two
 * says which files changed. Build output, {@code .racetriage/}, VCS folders and {@code node_modules} are ignored.
 */
public record SourceFingerprint(Map<String, Long> stamps) {
  private static final Set<String> SKIPPED = Set.of("target", ".racetriage", ".git", ".svn", ".idea", "node_modules");

  public SourceFingerprint {
    stamps = Map.copyOf(stamps);
  }

  public static SourceFingerprint of(Path root) throws IOException {
    Map<String, Long> stamps = new TreeMap<>();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        return !dir.equals(root) && SKIPPED.contains(dir.getFileName().toString())
            ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        String relative = root.relativize(file).toString().replace('\\', '/');
        if (file.getFileName().toString().equals("pom.xml") || relative.startsWith("src/") || relative.contains("/src/")) {
          stamps.put(relative, attrs.size() * 31 + attrs.lastModifiedTime().toMillis());
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) {
        return FileVisitResult.CONTINUE; // a file deleted while walking
      }
    });
    return new SourceFingerprint(stamps);
  }

  /** The files added, removed or changed since {@code before}. */
  public Set<String> changedSince(SourceFingerprint before) {
    Set<String> changed = new TreeSet<>();
    stamps.forEach((path, stamp) -> {
      if (!stamp.equals(before.stamps.get(path))) changed.add(path);
    });
    before.stamps.keySet().stream().filter(p -> !stamps.containsKey(p)).forEach(changed::add);
    return changed;
  }
}
