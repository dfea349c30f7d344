package dev.racetriage.runner.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A project whose pom configures Surefire, built with the real Maven and run in real test JVMs: the tests themselves
 * check that they see what the pom says (they fail otherwise), and what the pom leaves out does not run.
 */
class SurefireConfiguredRunTest {
  private static final Duration GENEROUS = Duration.ofMinutes(2);

  @TempDir static Path dir;
  private static TestModule module;

  @BeforeAll
  static void build() throws Exception {
    ProjectFixtures.writeSurefireProject(dir, ProjectFixtures.JUNIT5, """
        <argLine>-Dfoo=bar @{argLine} ${jacoco.agent} -Dspaced="a b" -Xmx200m</argLine>
        <systemPropertyVariables><fromPom>spv</fromPom><moduleProp>${fixture.prop}</moduleProp></systemPropertyVariables>
        <environmentVariables><RT_FIXTURE_ENV>envv</RT_FIXTURE_ENV></environmentVariables>
        <workingDirectory>${project.build.directory}/wd</workingDirectory>
        <excludes><exclude>**/Excluded*.java</exclude></excludes>
        <excludedGroups>slow</excludedGroups>
        <properties><configurationParameters>junit.jupiter.testinstance.lifecycle.default = per_class</configurationParameters></properties>
        <additionalClasspathElements><additionalClasspathElement>${project.basedir}/extra</additionalClasspathElement></additionalClasspathElements>
        <classpathDependencyExcludes><classpathDependencyExclude>org.apiguardian:apiguardian-*</classpathDependencyExclude></classpathDependencyExcludes>
        """, "<fixture.prop>from-properties</fixture.prop>", Map.of(
        "src/test/java/demo/ConfigTest.java", """
            package demo;
            import org.junit.jupiter.api.Test;
            import static org.junit.jupiter.api.Assertions.*;
            class ConfigTest {
              @Test void argLine() { assertEquals("bar", System.getProperty("foo")); assertEquals("a b", System.getProperty("spaced")); }
              @Test void systemProperties() {
                assertEquals("spv", System.getProperty("fromPom"));
                assertEquals("from-properties", System.getProperty("moduleProp"));
                assertNotNull(System.getProperty("basedir"));
              }
              @Test void environment() { assertEquals("envv", System.getenv("RT_FIXTURE_ENV")); }
              @Test void workingDirectory() {
                assertTrue(new java.io.File("").getAbsoluteFile().toPath().endsWith("target/wd"), new java.io.File("").getAbsolutePath());
              }
              // additionalClasspathElements adds a directory (a multi-release build's META-INF/versions/11, in jsoup);
              // classpathDependencyExcludes takes JUnit's apiguardian off the class path
              @Test void classpath() throws Exception {
                assertNotNull(getClass().getClassLoader().getResource("extra-resource.txt"), System.getProperty("java.class.path"));
                assertThrows(ClassNotFoundException.class, () -> Class.forName("org.apiguardian.api.API"));
              }
            }
            """,
        "extra/extra-resource.txt", "on the class path only through additionalClasspathElements\n",
        "src/test/java/demo/ExcludedTest.java", """
            package demo;
            class ExcludedTest { @org.junit.jupiter.api.Test void mustNotRun() { throw new AssertionError("excluded by the pom"); } }
            """,
        "src/test/java/demo/TaggedTest.java", """
            package demo;
            import org.junit.jupiter.api.*;
            class TaggedTest {
              @Test void fast() {}
              @Test @Tag("slow") void slow() { throw new AssertionError("excludedGroups says slow does not run"); }
            }
            """,
        "src/test/java/demo/PerClassTest.java", """
            package demo;
            import org.junit.jupiter.api.*;
            class PerClassTest {
              private int prepared;
              // a non-static @BeforeAll works only with the per_class default from the configuration parameters
              @BeforeAll void prepare() { prepared = 1; }
              @Test void prepared() { Assertions.assertEquals(1, prepared); }
            }
            """,
        "src/test/java/demo/Helper.java", """
            package demo;
            class Helper { @org.junit.jupiter.api.Test void notATestClassName() { throw new AssertionError("not in Surefire's includes"); } }
            """));
    MavenProject project = new ProjectBuilder(Duration.ofMinutes(5)).build(dir);
    module = project.modules().get(0);
  }

  private TestJvm jvm() throws Exception {
    return new TestJvm(module, JUnitPlatformJars.launcherFor(module, dir), AgentJar.locate());
  }

  private static Map<String, TestOutcome.Status> byName(TestRunResult run) {
    Map<String, TestOutcome.Status> statuses = new TreeMap<>();
    run.outcomes().forEach(o -> statuses.put(o.className().replace("demo.", "") + "#" + o.method(), o.status()));
    return statuses;
  }

  @Test
  void runsWhatMvnTestWouldRunAsTheSurefireConfigurationSays() throws Exception {
    TestRunResult run = jvm().run(TestSelection.ALL, Optional.empty(), GENEROUS, dir.resolve("all"));

    assertTrue(run.completed(), () -> "see " + run.log());
    Map<String, TestOutcome.Status> expected = new TreeMap<>(Map.of(
        "ConfigTest#argLine", TestOutcome.Status.PASSED,
        "ConfigTest#systemProperties", TestOutcome.Status.PASSED,
        "ConfigTest#environment", TestOutcome.Status.PASSED,
        "ConfigTest#workingDirectory", TestOutcome.Status.PASSED,
        "ConfigTest#classpath", TestOutcome.Status.PASSED,
        "TaggedTest#fast", TestOutcome.Status.PASSED,
        "PerClassTest#prepared", TestOutcome.Status.PASSED));
    assertEquals(expected, byName(run), () -> run.outcomes().toString());
  }

  @Test
  void theReplayCommandShowsEverythingTheJvmIsStartedWith() throws Exception {
    String replay = jvm().replayCommand(TestSelection.ALL, Optional.of("mode=detect"), dir.resolve("r.jsonl"));
    assertTrue(replay.startsWith("cd " + dir.resolve("target/wd")), replay);
    assertTrue(replay.contains("env RT_FIXTURE_ENV=envv "), replay);
    assertTrue(replay.contains(" -Dfoo=bar "), replay);
    assertTrue(replay.contains(" '-Dspaced=a b' "), replay);
    assertTrue(replay.contains(" -DfromPom=spv "), replay);
    assertTrue(replay.contains("--config junit.jupiter.testinstance.lifecycle.default=per_class"), replay);
    assertTrue(replay.contains("--exclude '**/Excluded*.java'"), replay);
    assertTrue(replay.contains("--excluded-groups slow"), replay);
    assertTrue(replay.indexOf("-javaagent:") < replay.indexOf("-Dfoo=bar"), replay);
    // the detection JVM's heap: twice the argLine's limit plus 256 MB, after it (the last limit counts)
    assertTrue(replay.indexOf(" -Xmx200m ") < replay.indexOf(" -Xmx656m "), replay);
    String baseline = jvm().replayCommand(TestSelection.ALL, Optional.empty(), dir.resolve("r.jsonl"));
    assertTrue(baseline.contains(" -Xmx200m ") && !baseline.contains("-Xmx656m"), baseline);
    // and its soft-reference policy (the fixture's argLine sets none); the baseline keeps the JVM's default
    assertTrue(replay.contains(" -XX:SoftRefLRUPolicyMSPerMB=100 "), replay);
    assertTrue(!baseline.contains("SoftRefLRUPolicyMSPerMB"), baseline);
    // the parallel collector with a 5 % time goal, for the detection JVM only
    assertTrue(replay.contains(" -XX:+UseParallelGC -XX:GCTimeRatio=19 "), replay);
    assertTrue(!baseline.contains("GCTimeRatio") && !baseline.contains("UseParallelGC"), baseline);
  }

  @Test
  void testsSpecOverridesTheIncludesAndExcludesButNotTheGroups() throws Exception {
    TestRunResult run = jvm().run(TestSelection.matching("Excluded*, TaggedTest, ConfigTest#env*"), Optional.empty(),
        GENEROUS, dir.resolve("spec"));

    assertEquals(List.of("ConfigTest#environment", "ExcludedTest#mustNotRun", "TaggedTest#fast"),
        List.copyOf(byName(run).keySet()), () -> run.outcomes().toString());
  }
}
