package dev.racetriage.runner.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.runner.project.MavenProject;
import dev.racetriage.runner.project.ProjectBuilder;
import dev.racetriage.runner.project.ProjectFixtures;
import dev.racetriage.runner.project.TestModule;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --tests} selections and JUnit 4-only projects, run in real JVMs. */
class TestSelectionRunTest {
  private static final Duration GENEROUS = Duration.ofMinutes(2);

  private static List<String> ran(TestRunResult run) {
    TreeSet<String> names = new TreeSet<>();
    run.outcomes().forEach(o -> names.add(o.className().replace("demo.", "") + "#" + o.method()
        + (o.name().startsWith("[") ? o.name().substring(0, o.name().indexOf(']') + 1) : "")));
    return List.copyOf(names);
  }

  @Test
  void aMalformedSpecIsRejectedBeforeAnythingRuns() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TestSelection.matching("A#b#c"));
    assertTrue(e.getMessage().contains("--tests 'A#b#c'"), e.getMessage());
    assertTrue(e.getMessage().contains("more than one '#'"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> TestSelection.matching("%regex[(#x]"));
  }

  @Nested
  class JUnit5 {
    @TempDir static Path dir;
    private static TestModule module;

    @BeforeAll
    static void build() throws Exception {
      ProjectFixtures.writeSurefireProject(dir, ProjectFixtures.JUNIT5, "", "", Map.of(
          "src/test/java/demo/AlphaTest.java", """
              package demo;
              import org.junit.jupiter.api.Test;
              class AlphaTest { @Test void a1() {} @Test void a2() {} }
              """,
          "src/test/java/demo/BetaTest.java", """
              package demo;
              import org.junit.jupiter.api.Test;
              import org.junit.jupiter.params.ParameterizedTest;
              import org.junit.jupiter.params.provider.ValueSource;
              class BetaTest {
                @Test void b1() {}
                @ParameterizedTest @ValueSource(ints = {1, 2}) void p(int i) {}
              }
              """));
      MavenProject project = new ProjectBuilder(Duration.ofMinutes(5)).build(dir);
      module = project.modules().get(0);
    }

    private TestRunResult run(String spec, String name) throws Exception {
      TestJvm jvm = new TestJvm(module, JUnitPlatformJars.launcherFor(module, dir), AgentJar.locate());
      TestRunResult run = jvm.run(TestSelection.matching(spec), Optional.empty(), GENEROUS, dir.resolve(name));
      assertTrue(run.completed(), () -> "see " + run.log());
      return run;
    }

    @Test
    void aClass() throws Exception {
      assertEquals(List.of("AlphaTest#a1", "AlphaTest#a2"), ran(run("AlphaTest", "class")));
    }

    @Test
    void methodsIncludingAParameterizedOne() throws Exception {
      assertEquals(List.of("AlphaTest#a1", "BetaTest#p[1]", "BetaTest#p[2]"),
          ran(run("demo.AlphaTest#a1, BetaTest#p", "methods")));
    }

    @Test
    void wildcardsAndAMethodExclusion() throws Exception {
      assertEquals(List.of("AlphaTest#a1", "AlphaTest#a2", "BetaTest#p[1]", "BetaTest#p[2]"),
          ran(run("*Test, !BetaTest#b*", "exclusion")));
    }

    @Test
    void aRegex() throws Exception {
      assertEquals(List.of("AlphaTest#a2", "BetaTest#b1"), ran(run("%regex[.*(Alpha|Beta).*#(a2|b.)]", "regex")));
    }
  }

  @Nested
  class JUnit4Only {
    @TempDir static Path dir;

    @Test
    void runsThroughTheVintageEngineWithCategoriesAsGroups() throws Exception {
      ProjectFixtures.writeSurefireProject(dir, ProjectFixtures.JUNIT4, "<excludedGroups>demo.Slow</excludedGroups>", "",
          Map.of(
              "src/test/java/demo/Slow.java", "package demo; public interface Slow {}",
              "src/test/java/demo/LegacyTest.java", """
                  package demo;
                  import org.junit.*;
                  import org.junit.experimental.categories.Category;
                  public class LegacyTest {
                    @Test public void works() { Assert.assertEquals(2, 1 + 1); }
                    @Test public void fails() { Assert.fail("on purpose"); }
                    @Test @Category(Slow.class) public void slow() { Assert.fail("excludedGroups names its category"); }
                  }
                  """));
      TestModule module = new ProjectBuilder(Duration.ofMinutes(5)).build(dir).modules().get(0);
      TestJvm jvm = new TestJvm(module, JUnitPlatformJars.launcherFor(module, dir), AgentJar.locate());

      TestRunResult run = jvm.run(TestSelection.ALL, Optional.empty(), GENEROUS, dir.resolve("run"));

      assertTrue(run.completed(), () -> "see " + run.log());
      assertEquals(List.of("LegacyTest#fails", "LegacyTest#works"), ran(run));
      TestOutcome failed = run.outcomes().stream().filter(o -> o.method().equals("fails")).findFirst().orElseThrow();
      assertEquals(TestOutcome.Status.FAILED, failed.status());
      assertTrue(failed.failure().message().contains("on purpose"));
    }
  }
}
