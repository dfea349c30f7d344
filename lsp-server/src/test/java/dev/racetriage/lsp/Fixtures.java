package dev.racetriage.lsp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Copies the fixture project (a Maven layout with racy classes) into a test's temporary directory. */
final class Fixtures {
  static final String SINGLETON = "demo/LazySingletonBad.java";
  static final String WORKER = "demo/WorkerBad.java";

  private Fixtures() {}

  /** {@code dir/pom.xml} and {@code dir/src/main/java/demo/*.java}; returns {@code dir}. */
  static Path mavenProject(Path dir) throws IOException {
    copy("pom.xml", dir.resolve("pom.xml"));
    for (String source : new String[] {SINGLETON, WORKER}) {
      copy(source, source(dir, source));
    }
    return dir;
  }

  /** Where examples/racy-shapes keeps its sources, in the project and in a copy. */
  static final String EXAMPLES_PACKAGE_DIR = "src/main/java/dev/racetriage/examples";

  /**
   * A copy of {@code examples/racy-shapes} at {@code target}: pom.xml and the main sources only (a store left by an
   * earlier triage of the examples must not leak in); returns {@code target}.
   */
  static Path racyShapes(Path target) throws IOException {
    Path example = Path.of("..", "examples", "racy-shapes").toAbsolutePath().normalize();
    if (!Files.isRegularFile(example.resolve("pom.xml"))) {
      throw new IOException("examples/racy-shapes not found at " + example);
    }
    Files.createDirectories(target);
    Files.copy(example.resolve("pom.xml"), target.resolve("pom.xml"));
    Path into = Files.createDirectories(target.resolve(EXAMPLES_PACKAGE_DIR));
    try (java.util.stream.Stream<Path> list = Files.list(example.resolve(EXAMPLES_PACKAGE_DIR))) {
      for (Path source : list.filter(p -> p.toString().endsWith(".java")).toList()) {
        Files.copy(source, into.resolve(source.getFileName()));
      }
    }
    return target;
  }

  static Path source(Path project, String relative) {
    return project.resolve("src/main/java").resolve(relative);
  }

  static String text(String relative) throws IOException {
    try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/" + relative)) {
      if (in == null) {
        throw new IOException("missing test resource fixtures/" + relative);
      }
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  private static void copy(String resource, Path target) throws IOException {
    Files.createDirectories(target.getParent());
    Files.writeString(target, text(resource));
  }
}
