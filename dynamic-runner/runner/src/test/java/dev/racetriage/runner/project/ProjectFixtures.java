package dev.racetriage.runner.project;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes small Maven projects for the runner's tests. */
public final class ProjectFixtures {
  private ProjectFixtures() {}

  private static final String PLUGINS = """
        <build>
          <pluginManagement>
            <plugins>
              <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
              <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
              <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>3.5.2</version></plugin>
            </plugins>
          </pluginManagement>
        </build>
      """;

  private static final String JUNIT = """
          <dependency>
            <groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.14.1</version><scope>test</scope>
          </dependency>
      """;

  public static void writeSingleModuleProject(Path dir, String mainSource) throws IOException {
    write(dir.resolve("pom.xml"), pom("single", "jar", "", JUNIT));
    String className = mainSource.replaceAll("(?s).*public class (\\w+).*", "$1");
    write(dir.resolve("src/main/java/demo/" + className + ".java"), mainSource);
  }

  public static void writeTwoModuleProject(Path dir) throws IOException {
    write(dir.resolve("pom.xml"), pom("parent", "pom", "<modules><module>lib</module><module>app</module></modules>", ""));
    write(dir.resolve("lib/pom.xml"), child("lib", JUNIT));
    write(dir.resolve("lib/src/main/java/demo/lib/Counter.java"),
        "package demo.lib; public class Counter { int n; public int next() { return ++n; } }");
    write(dir.resolve("lib/src/test/java/demo/lib/CounterTest.java"), """
        package demo.lib;
        import org.junit.jupiter.api.Test;
        import static org.junit.jupiter.api.Assertions.assertEquals;
        class CounterTest { @Test void counts() { assertEquals(1, new Counter().next()); } }
        """);
    write(dir.resolve("app/pom.xml"), child("app",
        "<dependency><groupId>demo</groupId><artifactId>lib</artifactId><version>1.0</version></dependency>" + JUNIT));
    write(dir.resolve("app/src/main/java/demo/app/App.java"),
        "package demo.app; public class App { public static int twice() { demo.lib.Counter c = new demo.lib.Counter(); c.next(); return c.next(); } }");
    write(dir.resolve("app/src/test/java/demo/app/AppTest.java"), """
        package demo.app;
        import org.junit.jupiter.api.Test;
        import static org.junit.jupiter.api.Assertions.assertEquals;
        class AppTest { @Test void countsTwice() { assertEquals(2, App.twice()); } }
        """);
  }

  /** A single-module project whose only test class is {@code demo.BehaviourTest} with the given body. */
  public static void writeProjectWithTests(Path dir, String testClassBody) throws IOException {
    write(dir.resolve("pom.xml"), pom("behaviour", "jar", "", JUNIT));
    write(dir.resolve("src/test/java/demo/BehaviourTest.java"), """
        package demo;
        import org.junit.jupiter.api.Test;
        import static org.junit.jupiter.api.Assertions.*;
        class BehaviourTest {
        %s
        }
        """.formatted(testClassBody));
  }

  /** A single-module project with JUnit 5 and the given files (paths relative to the project, e.g. src/test/java/demo/ATest.java). */
  public static void writeProject(Path dir, java.util.Map<String, String> files) throws IOException {
    write(dir.resolve("pom.xml"), pom("fixture", "jar", "", JUNIT));
    for (var file : files.entrySet()) {
      write(dir.resolve(file.getKey()), file.getValue());
    }
  }

  /** JUnit 4 alone, as a JUnit 4-only project declares it. */
  public static final String JUNIT4 = """
          <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>
      """;

  /** JUnit 5 with parameterized tests. */
  public static final String JUNIT5 = JUNIT;

  /**
   * A single-module project with the given dependencies, maven-surefire-plugin {@code <configuration>} content,
   * {@code <properties>} content, and files.
   */
  public static void writeSurefireProject(Path dir, String dependencies, String surefireConfiguration, String properties,
      java.util.Map<String, String> files) throws IOException {
    String pom = """
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>demo</groupId><artifactId>surefire-fixture</artifactId><version>1.0</version>
          <properties><maven.compiler.release>17</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>%s</properties>
          <dependencies>%s</dependencies>
          <build>
            <pluginManagement>
              <plugins>
                <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
                <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
              </plugins>
            </pluginManagement>
            <plugins>
              <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>3.5.2</version>
                <configuration>%s</configuration>
              </plugin>
            </plugins>
          </build>
        </project>
        """.formatted(properties, dependencies, surefireConfiguration);
    write(dir.resolve("pom.xml"), pom);
    for (var file : files.entrySet()) {
      write(dir.resolve(file.getKey()), file.getValue());
    }
  }

  /** Copies the repository's examples/racy-shapes project (sources only: no build output, no triage data) into {@code dir}. */
  public static Path copyRacyShapes(Path dir) throws IOException {
    Path source = repositoryRoot().resolve("examples/racy-shapes");
    try (var files = Files.walk(source)) {
      for (Path file : files.filter(Files::isRegularFile).filter(f -> !source.relativize(f).startsWith("target") && !source.relativize(f).startsWith(".racetriage")).toList()) {
        Path target = dir.resolve(source.relativize(file).toString());
        Files.createDirectories(target.getParent());
        Files.copy(file, target);
      }
    }
    return dir;
  }

  /** The racetriage checkout: the nearest ancestor of the working directory that holds examples/. */
  public static Path repositoryRoot() {
    Path here = Path.of("").toAbsolutePath();
    for (Path p = here; p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("examples/racy-shapes"))) return p;
    }
    throw new IllegalStateException("examples/racy-shapes not found above " + here);
  }

  private static String pom(String artifactId, String packaging, String modules, String dependencies) {
    return """
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>demo</groupId><artifactId>%s</artifactId><version>1.0</version><packaging>%s</packaging>
          <properties><maven.compiler.release>17</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>
          %s
          <dependencies>%s</dependencies>
          %s
        </project>
        """.formatted(artifactId, packaging, modules, dependencies, PLUGINS);
  }

  private static String child(String artifactId, String dependencies) {
    return """
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <parent><groupId>demo</groupId><artifactId>parent</artifactId><version>1.0</version></parent>
          <artifactId>%s</artifactId>
          <dependencies>%s</dependencies>
        </project>
        """.formatted(artifactId, dependencies);
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
