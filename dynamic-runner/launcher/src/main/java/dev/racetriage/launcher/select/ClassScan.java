package dev.racetriage.launcher.select;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The test classes under a class directory that a Surefire filter lets run, by class file path as Surefire's
 * directory scanner matches them.
 */
public final class ClassScan {
  private ClassScan() {}

  /** Class names, sorted, of the {@code .class} files under {@code root} that {@code spec} lets run. */
  public static List<String> classes(Path root, TestSpec spec) {
    if (!Files.isDirectory(root)) return List.of();
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".class"))
          .map(f -> root.relativize(f).toString().replace('\\', '/'))
          .map(path -> path.substring(0, path.length() - ".class".length()).replace('/', '.'))
          .filter(name -> !name.endsWith("module-info") && !name.endsWith("package-info"))
          .filter(spec::runsClass)
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the test classes in " + root, e);
    }
  }
}
