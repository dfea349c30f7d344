package dev.racetriage.runner.project;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Builds real (tiny) Maven projects with the real Maven, as a user's project would be built. */
class ProjectBuilderTest {
  private final ProjectBuilder builder = new ProjectBuilder(Duration.ofMinutes(5));

  @TempDir Path dir;

  @Test
  void buildsAMultiModuleProjectAndReadsEachModulesTestClasspath() throws Exception {
    ProjectFixtures.writeTwoModuleProject(dir);

    MavenProject project = builder.build(dir);

    List<String> names = project.modules().stream().map(m -> m.name(dir)).toList();
    assertEquals(List.of("app", "lib"), names);
    TestModule app = project.modules().get(0);
    assertTrue(Files.isRegularFile(app.testClasses().resolve("demo/app/AppTest.class")));
    assertEquals(app.testClasses(), app.testClasspath().get(0));
    assertEquals(app.classes(), app.testClasspath().get(1));
    assertTrue(
        app.testClasspath().stream().anyMatch(p -> p.getFileName().toString().startsWith("junit-jupiter-api")),
        () -> "JUnit missing from " + app.testClasspath());
    // the reactor dependency on lib resolves to lib's compiled classes
    assertTrue(
        app.testClasspath().stream().anyMatch(p -> p.endsWith(Path.of("lib", "target", "classes"))),
        () -> "lib's classes missing from " + app.testClasspath());
  }

  @Test
  void eachModuleGetsItsOwnSurefireConfigurationAndASkippedModuleANote() throws Exception {
    ProjectFixtures.writeTwoModuleProject(dir);
    Files.writeString(dir.resolve("lib/pom.xml"), Files.readString(dir.resolve("lib/pom.xml"))
        .replace("<artifactId>lib</artifactId>", "<artifactId>lib</artifactId><properties><skipTests>true</skipTests></properties>"));
    Files.writeString(dir.resolve("app/pom.xml"), Files.readString(dir.resolve("app/pom.xml")).replace("</project>", """
          <build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId>
            <configuration><argLine>-Dapp=${project.artifactId}</argLine><excludes><exclude>**/Big*.java</exclude></excludes></configuration>
          </plugin></plugins></build>
        </project>"""));

    MavenProject project = builder.build(dir);

    assertEquals(List.of("app"), project.modules().stream().map(m -> m.name(dir)).toList());
    SurefireConfig app = project.modules().get(0).surefire();
    assertEquals("-Dapp=app", app.argLine());
    assertEquals(List.of("**/Big*.java"), app.excludes());
    assertEquals(1, project.notes().size(), project.notes()::toString);
    assertTrue(project.notes().get(0).startsWith("The tests of lib are not run: its pom sets the property skipTests=true"),
        project.notes().get(0));
  }

  @Test
  void aDirectoryWithoutPomIsNotAMavenProject() throws IOException {
    Files.writeString(dir.resolve("Main.java"), "class Main {}");
    ProjectBuildException error = assertThrows(ProjectBuildException.class, () -> builder.build(dir));
    assertTrue(error.getMessage().contains("is not a Maven project (no pom.xml)"), error.getMessage());
    assertTrue(error.getMessage().contains(dir.toAbsolutePath().toString()), error.getMessage());
  }

  @Test
  void aMissingDirectoryIsReported() {
    Path missing = dir.resolve("nowhere");
    ProjectBuildException error = assertThrows(ProjectBuildException.class, () -> builder.build(missing));
    assertTrue(error.getMessage().contains("does not exist"), error.getMessage());
  }

  /**
   * A module that does not build leaves the others to be triaged, with a note naming it (gson's test-jpms needs the
   * packaged jar); its class path from an earlier, successful build is not read again.
   */
  @Test
  void aModuleThatDoesNotBuildIsLeftOutWithANoteAndTheOthersAreBuilt() throws Exception {
    ProjectFixtures.writeTwoModuleProject(dir);
    assertEquals(List.of("app", "lib"), builder.build(dir).modules().stream().map(m -> m.name(dir)).toList());
    Files.writeString(dir.resolve("app/src/test/java/demo/app/AppTest.java"), "package demo.app; class AppTest { int x = ; }");

    MavenProject project = builder.build(dir);

    assertEquals(List.of("lib"), project.modules().stream().map(m -> m.name(dir)).toList());
    String note = project.notes().get(0);
    assertTrue(note.startsWith("Part of the build failed ('mvn process-test-classes' exited with 1): module(s) app did "
        + "not build, so their tests are not run; the other 1 module(s) with tests are."), note);
    assertTrue(note.contains("AppTest.java"), note);
  }

  /** A module Maven skips because the module it depends on failed is named too, though Maven names only the failure. */
  @Test
  void aModuleSkippedAfterItsDependencyFailedIsNamedAsNotBuilt() throws Exception {
    ProjectFixtures.writeTwoModuleProject(dir);
    Files.writeString(dir.resolve("lib/src/test/java/demo/lib/CounterTest.java"), "package demo.lib; class CounterTest { int x = ; }");
    Files.createDirectories(dir.resolve("extra/src/test/java/demo/extra"));
    Files.writeString(dir.resolve("pom.xml"), Files.readString(dir.resolve("pom.xml"))
        .replace("<module>app</module>", "<module>app</module><module>extra</module>"));
    Files.writeString(dir.resolve("extra/pom.xml"), Files.readString(dir.resolve("lib/pom.xml"))
        .replace("<artifactId>lib</artifactId>", "<artifactId>extra</artifactId>"));
    Files.writeString(dir.resolve("extra/src/test/java/demo/extra/ExtraTest.java"), """
        package demo.extra;
        class ExtraTest { @org.junit.jupiter.api.Test void runs() {} }
        """);

    MavenProject project = builder.build(dir);

    assertEquals(List.of("extra"), project.modules().stream().map(m -> m.name(dir)).toList());
    String note = project.notes().get(0);
    assertTrue(note.contains("module(s) lib did not build, so their tests are not run (nor did app, skipped after it)"),
        note);
  }

  /** The build runs what 'mvn test' runs before the tests: a plugin bound to process-test-classes has run. */
  @Test
  void pluginsBoundToProcessTestClassesRunBeforeTheTests() throws Exception {
    ProjectFixtures.writeTwoModuleProject(dir);
    Files.createDirectories(dir.resolve("lib/extra"));
    Files.writeString(dir.resolve("lib/extra/marker.txt"), "copied at process-test-classes\n");
    Files.writeString(dir.resolve("lib/pom.xml"), Files.readString(dir.resolve("lib/pom.xml")).replace("</project>", """
          <build><plugins><plugin><artifactId>maven-resources-plugin</artifactId>
            <executions><execution><id>post-process</id><phase>process-test-classes</phase><goals><goal>copy-resources</goal></goals>
              <configuration><outputDirectory>${project.build.testOutputDirectory}/post</outputDirectory>
                <resources><resource><directory>extra</directory></resource></resources></configuration>
            </execution></executions>
          </plugin></plugins></build>
        </project>"""));

    builder.build(dir);

    assertTrue(Files.isRegularFile(dir.resolve("lib/target/test-classes/post/marker.txt")));
  }

  @Test
  void aProjectThatDoesNotCompileShowsTheCompilerError() throws Exception {
    ProjectFixtures.writeSingleModuleProject(dir, "package demo; public class Broken { int x = ; }");
    ProjectBuildException error = assertThrows(ProjectBuildException.class, () -> builder.build(dir));
    assertTrue(error.getMessage().contains("does not build"), error.getMessage());
    assertTrue(error.getMessage().contains("Broken.java"), error.getMessage());
  }
}
