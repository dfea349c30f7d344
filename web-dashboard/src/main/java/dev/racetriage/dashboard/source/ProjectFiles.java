package dev.racetriage.dashboard.source;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The only way the dashboard reads files: source files inside the project directory. A request path is relative;
 * it is refused when it is absolute, contains {@code ..}, names a hidden segment (such as {@code .git} or
 * {@code .racetriage}), is not a source file by extension, resolves — after following symbolic links — to a
 * place outside the project's real path, or is a file with more than one hard link.
 */
public final class ProjectFiles {
  static final Set<String> SOURCE_EXTENSIONS = Set.of("java", "kt", "scala", "groovy");
  static final long MAX_FILE_BYTES = 4L * 1024 * 1024;
  private static final List<String> SOURCE_ROOTS =
      List.of("src/main/java", "src/test/java", "src/main/kotlin", "src/test/kotlin", "src");

  static final int MAX_MODULES = 200;

  private final Path root;
  /** Computed on first use; the module layout of a project does not change while the dashboard runs. */
  private volatile List<String> modules;

  public ProjectFiles(Path projectDir) {
    try {
      this.root = projectDir.toRealPath();
    } catch (IOException e) {
      throw new IllegalArgumentException("project directory " + projectDir + " does not exist", e);
    }
  }

  public Path root() {
    return root;
  }

  /** Lines around {@code line} ({@code context} before and after) of {@code relativePath}. */
  public SourceExcerpt excerpt(String relativePath, int line, int context) {
    Path file = resolve(relativePath);
    List<String> all = readLines(file, relativePath);
    int focus = Math.max(1, Math.min(line, Math.max(1, all.size())));
    int first = Math.max(1, focus - context);
    int last = Math.min(all.size(), focus + context);
    List<String> lines = first <= last ? all.subList(first - 1, last) : List.of();
    return new SourceExcerpt(root.relativize(file).toString().replace('\\', '/'), focus, first, lines, all.size());
  }

  /**
   * Finds the source file of a class as the agent reports it ({@code pkg.Outer$Inner} and the file name from the
   * class file's SourceFile attribute) under the usual source roots of the project and of its modules (directories
   * one level down, as in a Maven multi-module build); the result is relative to the project.
   */
  public Optional<String> locate(String className, String fileName) {
    if (fileName == null || fileName.isBlank() || className == null) {
      return Optional.empty();
    }
    int lastDot = className.lastIndexOf('.');
    String packagePath = lastDot < 0 ? "" : className.substring(0, lastDot).replace('.', '/') + "/";
    for (String module : modules()) {
      for (String sourceRoot : SOURCE_ROOTS) {
        String candidate = module + sourceRoot + "/" + packagePath + fileName;
        try {
          if (Files.isRegularFile(resolve(candidate))) {
            return Optional.of(candidate);
          }
        } catch (SourceAccessDenied | NoSuchSourceFile e) {
          // Not under this root; try the next.
        }
      }
    }
    return Optional.empty();
  }

  /** "" (the project itself) then each visible subdirectory holding a {@code src} directory, as path prefixes. */
  private List<String> modules() {
    List<String> cached = modules;
    if (cached != null) {
      return cached;
    }
    List<String> found = new ArrayList<>();
    found.add("");
    try (Stream<Path> children = Files.list(root)) {
      children
          .filter(child -> !child.getFileName().toString().startsWith("."))
          .filter(child -> Files.isDirectory(child.resolve("src"), LinkOption.NOFOLLOW_LINKS))
          .map(child -> child.getFileName().toString() + "/")
          .sorted()
          .limit(MAX_MODULES)
          .forEach(found::add);
    } catch (IOException e) {
      // An unreadable project directory just means no module sources are shown.
    }
    modules = List.copyOf(found);
    return modules;
  }

  Path resolve(String relativePath) {
    if (relativePath == null || relativePath.isBlank()) {
      throw new SourceAccessDenied("no file named");
    }
    String normalizedSeparators = relativePath.replace('\\', '/');
    if (normalizedSeparators.startsWith("/") || normalizedSeparators.contains(":") || relativePath.indexOf('\0') >= 0) {
      throw new SourceAccessDenied("'" + relativePath + "' is not a path inside the project");
    }
    for (String segment : normalizedSeparators.split("/")) {
      if (segment.equals("..") || segment.startsWith(".")) {
        throw new SourceAccessDenied("'" + relativePath + "' leaves the project or names a hidden file");
      }
    }
    if (!SOURCE_EXTENSIONS.contains(extension(normalizedSeparators))) {
      throw new SourceAccessDenied("'" + relativePath + "' is not a source file (" + SOURCE_EXTENSIONS + ")");
    }
    Path candidate;
    try {
      candidate = root.resolve(normalizedSeparators).normalize();
    } catch (InvalidPathException e) {
      throw new SourceAccessDenied("'" + relativePath + "' is not a valid path");
    }
    if (!candidate.startsWith(root)) {
      throw new SourceAccessDenied("'" + relativePath + "' leaves the project");
    }
    if (!Files.exists(candidate, LinkOption.NOFOLLOW_LINKS)) {
      throw new NoSuchSourceFile(relativePath);
    }
    try {
      // A symbolic link inside the project may point anywhere: check where it really leads.
      Path real = candidate.toRealPath();
      if (!real.startsWith(root)) {
        throw new SourceAccessDenied("'" + relativePath + "' is a link that leaves the project");
      }
      if (hardLinked(real)) {
        throw new SourceAccessDenied("'" + relativePath + "' is a hard link (it may be a file outside the project)");
      }
      return real;
    } catch (IOException e) {
      throw new NoSuchSourceFile(relativePath);
    }
  }

  /**
   * A hard link has no "real path" elsewhere: a link inside the project to a file outside it looks like any project
   * file. Source files are not hard-linked in a checkout, so one with more than one name is refused. File systems
   * without a link count (not Unix) cannot be asked; there the real-path check is all there is.
   */
  private static boolean hardLinked(Path real) throws IOException {
    if (!Files.isRegularFile(real)) {
      return false;
    }
    try {
      return ((Number) Files.getAttribute(real, "unix:nlink")).intValue() > 1;
    } catch (UnsupportedOperationException e) {
      return false;
    }
  }

  private static List<String> readLines(Path file, String shownAs) {
    try {
      if (!Files.isRegularFile(file) || Files.size(file) > MAX_FILE_BYTES) {
        throw new SourceAccessDenied("'" + shownAs + "' is not a regular source file of at most 4 MiB");
      }
      try {
        return Files.readAllLines(file, StandardCharsets.UTF_8);
      } catch (CharacterCodingException e) {
        return Files.readAllLines(file, StandardCharsets.ISO_8859_1);
      }
    } catch (IOException e) {
      throw new NoSuchSourceFile(shownAs);
    }
  }

  private static String extension(String path) {
    int dot = path.lastIndexOf('.');
    int slash = path.lastIndexOf('/');
    return dot > slash ? path.substring(dot + 1).toLowerCase(Locale.ROOT) : "";
  }

  /** The path is allowed but no such file exists (e.g. the sources moved since the run). */
  public static final class NoSuchSourceFile extends RuntimeException {
    public NoSuchSourceFile(String path) {
      super("'" + path + "' does not exist in the project (moved or deleted since the run?)");
    }
  }
}
