package dev.racetriage.lsp.triage;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Finds the source file of an access the agent reported. The agent knows what the class file says ({@code
 * Cache.java}, sometimes a project-relative path) and the stack ({@code pkg.Cache.get(Cache.java:12)}); the editor
 * needs an absolute path, looked up under the workspace's source roots.
 */
final class SourceLocator {
  private final Path root;
  private final List<Path> sourceRoots;

  SourceLocator(Path root, List<Path> sourceRoots) {
    this.root = root;
    this.sourceRoots = sourceRoots;
  }

  Optional<Path> locate(String file, List<String> stack, String ownerClass) {
    if (file != null && (file.contains("/") || file.contains("\\"))) {
      Path relative = Path.of(file);
      if (relative.isAbsolute() && Files.isRegularFile(relative)) {
        return Optional.of(relative.normalize());
      }
      for (Path base : bases()) {
        Path candidate = base.resolve(file).normalize();
        if (Files.isRegularFile(candidate)) {
          return Optional.of(candidate);
        }
      }
    }
    String fileName = file != null ? Path.of(file).getFileName().toString() : null;
    for (String className : classNames(stack, ownerClass)) {
      String packagePath = className.contains(".") ? className.substring(0, className.lastIndexOf('.')).replace('.', '/')
          : "";
      String topLevel = className.substring(className.lastIndexOf('.') + 1).split("\\$")[0];
      String name = fileName != null ? fileName : topLevel + ".java";
      for (Path sourceRoot : sourceRoots) {
        Path candidate = sourceRoot.resolve(packagePath).resolve(name);
        if (Files.isRegularFile(candidate)) {
          return Optional.of(candidate.toAbsolutePath().normalize());
        }
      }
    }
    return Optional.empty();
  }

  /** {@code file} relative to the workspace root, with '/' (null when it is outside the workspace). */
  String projectPath(Path file) {
    Path absolute = file.toAbsolutePath().normalize();
    Path base = root.toAbsolutePath().normalize();
    return absolute.startsWith(base) ? base.relativize(absolute).toString().replace('\\', '/') : null;
  }

  private List<Path> bases() {
    List<Path> bases = new java.util.ArrayList<>(sourceRoots);
    bases.add(0, root);
    return bases;
  }

  /** The class of the innermost frame ({@code pkg.Cls.method(Cls.java:12)} → {@code pkg.Cls}), then the owner. */
  private static List<String> classNames(List<String> stack, String ownerClass) {
    List<String> names = new java.util.ArrayList<>();
    if (stack != null && !stack.isEmpty()) {
      String frame = stack.get(0);
      int paren = frame.indexOf('(');
      String method = paren < 0 ? frame : frame.substring(0, paren);
      int dot = method.lastIndexOf('.');
      if (dot > 0) {
        names.add(method.substring(0, dot).trim());
      }
    }
    names.add(ownerClass);
    return names;
  }
}
