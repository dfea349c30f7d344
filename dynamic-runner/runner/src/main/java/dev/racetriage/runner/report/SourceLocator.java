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
import dev.racetriage.runner.detect.DetectedRace;
import dev.racetriage.store.races.CodeScope;

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

  /**
   * Whether the race is a test-code race ({@link CodeScope#inTestCode}): every racing site it was seen at is in a
   * file under {@code src/test}. An access in a file this project does not hold (a library) is not test code.
   */
  public boolean inTestCode(DetectedRace race) {
    List<String> paths = new ArrayList<>();
    List<DetectedRace.Access> accesses = new ArrayList<>();
    if (race.current() != null) accesses.add(race.current());
    if (race.previous() != null) accesses.add(race.previous());
    for (DetectedRace.SitePair pair : race.sitePairs()) {
      if (pair.current() != null) accesses.add(pair.current());
      if (pair.previous() != null) accesses.add(pair.previous());
    }
    for (DetectedRace.Access access : accesses) {
      // an earlier write the h-summary did not keep has no class: it says nothing about where the race lives
      if (access.className() == null && access.file() == null) continue;
      paths.add(locate(access.className(), access.file()).orElse(null));
    }
    return CodeScope.inTestCode(paths);
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
