package dev.racetriage.runner.project;

import java.nio.file.Path;
import java.util.List;

/**
 * A built Maven project: its root, the modules whose tests racetriage runs, and notes for the user about what the
 * build's configuration left out (a module whose Surefire configuration skips its tests).
 */
public record MavenProject(Path root, List<TestModule> modules, List<String> notes) {
  public MavenProject {
    modules = List.copyOf(modules);
    notes = List.copyOf(notes);
  }

  public MavenProject(Path root, List<TestModule> modules) {
    this(root, modules, List.of());
  }
}
