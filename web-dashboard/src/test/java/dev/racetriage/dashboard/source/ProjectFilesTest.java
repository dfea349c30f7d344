package dev.racetriage.dashboard.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.racetriage.store.FieldKey;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.AccessType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProjectFilesTest {
  @TempDir Path temp;
  Path project;
  ProjectFiles files;

  @BeforeEach
  void layout() throws IOException {
    project = temp.resolve("project");
    Path pkg = project.resolve("src/main/java/com/example");
    Files.createDirectories(pkg);
    StringBuilder lines = new StringBuilder();
    for (int i = 1; i <= 30; i++) {
      lines.append("line ").append(i).append('\n');
    }
    Files.writeString(pkg.resolve("Outer.java"), lines);
    Files.createDirectories(project.resolve("src/test/java/com/example"));
    Files.writeString(project.resolve("src/test/java/com/example/OuterTest.java"), "class OuterTest {}\n");
    Files.writeString(temp.resolve("Secret.java"), "secret\n");
    Files.createSymbolicLink(pkg.resolve("Escape.java"), temp.resolve("Secret.java"));
    Files.createLink(pkg.resolve("HardEscape.java"), temp.resolve("Secret.java"));
    files = new ProjectFiles(project);
  }

  @Test
  void excerptIsClampedToTheFile() {
    SourceExcerpt start = files.excerpt("src/main/java/com/example/Outer.java", 1, 3);
    assertEquals(1, start.firstLine());
    assertEquals(List.of("line 1", "line 2", "line 3", "line 4"), start.lines());
    SourceExcerpt end = files.excerpt("src/main/java/com/example/Outer.java", 99, 2);
    assertEquals(30, end.focusLine());
    assertEquals(List.of("line 28", "line 29", "line 30"), end.lines());
    assertEquals(30, end.totalLines());
  }

  @ParameterizedTest
  @ValueSource(strings = {"../Secret.java", "src/../../Secret.java", "/etc/passwd", "C:/Windows/win.ini",
      "src\\..\\..\\Secret.java", "src/main/java/com/example/Escape.java",
      "src/main/java/com/example/HardEscape.java", ".hidden/A.java", "README.md", ""})
  void refusesAnythingButProjectSources(String path) {
    assertThrows(SourceAccessDenied.class, () -> files.excerpt(path, 1, 1));
  }

  @Test
  void missingFileIsNotADenial() {
    assertThrows(ProjectFiles.NoSuchSourceFile.class, () -> files.excerpt("src/main/java/Missing.java", 1, 1));
  }

  @Test
  void locatesAgentFileNamesUnderSourceRoots() {
    AccessSources sources = new AccessSources(files);
    FieldKey field = FieldKey.parse("com.example.Outer$Inner.count");
    AccessSite nested = new AccessSite(AccessType.WRITE, "t", "Outer.java", 3, List.of());
    assertEquals(Optional.of("src/main/java/com/example/Outer.java"), sources.projectPath(field, nested));
    AccessSite fromTest = new AccessSite(AccessType.READ, "t", "OuterTest.java", 1,
        List.of("com.example.OuterTest.run(OuterTest.java:1)"));
    assertEquals(Optional.of("src/test/java/com/example/OuterTest.java"), sources.projectPath(field, fromTest));
    AccessSite library = new AccessSite(AccessType.READ, "t", "HashMap.java", 1,
        List.of("java.util.HashMap.get(HashMap.java:1)"));
    assertEquals(Optional.empty(), sources.excerpt(field, library, 2));
  }

  @Test
  void locatesSourcesOfMavenModules() throws IOException {
    Path module = project.resolve("core/src/main/java/org/acme");
    Files.createDirectories(module);
    Files.writeString(module.resolve("Counter.java"), "class Counter {}\n");
    ProjectFiles fresh = new ProjectFiles(project);
    assertEquals(Optional.of("core/src/main/java/org/acme/Counter.java"), fresh.locate("org.acme.Counter", "Counter.java"));
    assertEquals(List.of("class Counter {}"), fresh.excerpt("core/src/main/java/org/acme/Counter.java", 1, 0).lines());
  }

  @Test
  void aLinkEscapingTheProjectIsNeverLocated() {
    AccessSite site = new AccessSite(AccessType.READ, "t", "Escape.java", 1, List.of());
    assertEquals(Optional.empty(), new AccessSources(files).excerpt(FieldKey.parse("com.example.Escape.f"), site, 1));
  }
}
