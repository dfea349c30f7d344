package dev.racetriage.lsp.workspace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The workspace the client opened: its root, whether it is a Maven project (the daemon and the store need one; the
 * static candidates of open files do not), and its Java source roots, for the prefilter's bindings.
 */
public record WorkspaceLayout(Path root, boolean maven, List<Path> sourceRoots) {

  public WorkspaceLayout {
    sourceRoots = List.copyOf(sourceRoots);
  }

  public static WorkspaceLayout detect(Path root) {
    Path normalized = root.toAbsolutePath().normalize();
    boolean maven = Files.isRegularFile(normalized.resolve("pom.xml"));
    List<Path> roots = new ArrayList<>();
    addSourceRoots(normalized, roots);
    // one level of Maven modules is enough for the usual reactor layout; deeper trees still work file by file
    if (maven) {
      try (Stream<Path> children = Files.list(normalized)) {
        children.filter(child -> Files.isRegularFile(child.resolve("pom.xml"))).sorted()
            .forEach(module -> addSourceRoots(module, roots));
      } catch (IOException e) {
        // an unreadable directory only costs bindings; the open files are still analysed
      }
    }
    return new WorkspaceLayout(normalized, maven, roots);
  }

  private static void addSourceRoots(Path project, List<Path> roots) {
    for (String relative : List.of("src/main/java", "src/test/java")) {
      Path candidate = project.resolve(relative);
      if (Files.isDirectory(candidate)) {
        roots.add(candidate);
      }
    }
  }

  /** No workspace folder: every file is analysed on its own (by its directory). */
  public static WorkspaceLayout none() {
    return new WorkspaceLayout(Path.of("/nonexistent", "racetriage-no-workspace"), false, List.of());
  }

  public boolean contains(Path file) {
    return file.toAbsolutePath().normalize().startsWith(root);
  }
}
