package dev.racetriage.runner.project;

import java.nio.file.Path;
import java.util.List;

/** A built Maven project: its root and the modules that have compiled tests. */
public record MavenProject(Path root, List<TestModule> modules) {
  public MavenProject {
    modules = List.copyOf(modules);
  }
}
