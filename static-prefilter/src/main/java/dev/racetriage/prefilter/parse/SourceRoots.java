package dev.racetriage.prefilter.parse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds a project's Java sources and the roots they sit under. A source root is the directory a file's package
 * starts from, so Maven layouts ({@code src/main/java}, {@code src/test/java}) and plain folders both work.
 *
 * @param files every {@code .java} file, sorted
 * @param roots the source roots, sorted
 */
public record SourceRoots(List<Path> files, List<Path> roots) {

  private static final Set<String> SKIPPED_DIRS = Set.of("target", "build", "out", "node_modules", ".git", ".idea",
      ".racetriage", "bin", ".gradle");
  private static final Pattern PACKAGE = Pattern.compile("(?m)^\\s*package\\s+([\\w.]+)\\s*;");

  public SourceRoots {
    files = List.copyOf(files);
    roots = List.copyOf(roots);
  }

  /** Walks {@code projectDir}, skipping build output and tool folders. */
  public static SourceRoots discover(Path projectDir) {
    List<Path> files = new ArrayList<>();
    try {
      Files.walkFileTree(projectDir, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
          boolean skip = !dir.equals(projectDir) && SKIPPED_DIRS.contains(dir.getFileName().toString());
          return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
          if (attrs.isRegularFile() && file.getFileName().toString().endsWith(".java")) {
            files.add(file.toAbsolutePath().normalize());
          }
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the Java sources under " + projectDir, e);
    }
    files.sort(null);
    Set<Path> roots = new TreeSet<>();
    for (Path file : files) {
      roots.add(rootOf(file));
    }
    return new SourceRoots(files, new ArrayList<>(roots));
  }

  /** The directory the file's package starts from (its own directory when the package does not match the path). */
  static Path rootOf(Path file) {
    Path dir = file.getParent();
    String pkg = packageOf(file);
    if (pkg.isEmpty()) {
      return dir;
    }
    Path candidate = dir;
    String[] parts = pkg.split("\\.");
    for (int i = parts.length - 1; i >= 0; i--) {
      if (candidate == null || candidate.getFileName() == null
          || !candidate.getFileName().toString().equals(parts[i])) {
        return dir;
      }
      candidate = candidate.getParent();
    }
    return candidate == null ? dir : candidate;
  }

  private static String packageOf(Path file) {
    try {
      // the package clause comes before any type, so the head of the file is enough
      String head = Files.readString(file, StandardCharsets.UTF_8);
      Matcher m = PACKAGE.matcher(head.length() > 8192 ? head.substring(0, 8192) : head);
      return m.find() ? m.group(1) : "";
    } catch (IOException | UncheckedIOException e) {
      return "";
    }
  }
}
