package dev.racetriage.runner.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Turns what a class file knows of its source (the binary class name and the source file's simple name) into the
 * source file's path relative to the project root, by looking in every module's {@code src/*\/java} roots.
 */
public final class SourceLocator {
  private final Path root;
  private final List<Path> sourceRoots;
  private final Map<String, Optional<String>> cache = new HashMap<>();

  public SourceLocator(Path projectRoot) {
    this.root = projectRoot.toAbsolutePath().normalize();
    this.sourceRoots = findSourceRoots(root);
  }

  /** The project-relative path (with '/') of the file that declares {@code className}, if it is in the project. */
  public synchronized Optional<String> locate(String className, String sourceFileName) {
    if (className == null) return Optional.empty();
    String key = className + "|" + sourceFileName;
    return cache.computeIfAbsent(key, k -> find(className, sourceFileName));
  }

  private Optional<String> find(String className, String sourceFileName) {
    int lastDot = className.lastIndexOf('.');
    String packagePath = lastDot < 0 ? "" : className.substring(0, lastDot).replace('.', '/');
    String simple = className.substring(lastDot + 1);
    int dollar = simple.indexOf('$');
    String file = sourceFileName != null ? sourceFileName : (dollar < 0 ? simple : simple.substring(0, dollar)) + ".java";
    for (Path sourceRoot : sourceRoots) {
      Path candidate = sourceRoot.resolve(packagePath).resolve(file);
      if (Files.isRegularFile(candidate)) {
        return Optional.of(root.relativize(candidate).toString().replace('\\', '/'));
      }
    }
    return Optional.empty();
  }

  private static List<Path> findSourceRoots(Path root) {
    List<Path> roots = new ArrayList<>();
    try (Stream<Path> dirs = Files.walk(root, 8)) {
      dirs.filter(Files::isDirectory)
          .filter(d -> d.getFileName() != null && d.getFileName().toString().equals("java"))
          .filter(d -> d.getParent() != null && d.getParent().getParent() != null
              && d.getParent().getParent().getFileName().toString().equals("src"))
          .filter(d -> !d.toString().contains("/target/") && !d.toString().contains("/node_modules/"))
          .sorted()
          .forEach(roots::add);
    } catch (IOException e) {
      // An unreadable tree only means fewer locations in the report.
    }
    return roots;
  }
}
