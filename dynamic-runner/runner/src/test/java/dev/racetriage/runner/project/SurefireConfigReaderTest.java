package dev.racetriage.runner.project;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading Surefire's configuration from effective POMs shaped as maven-help-plugin writes them. */
class SurefireConfigReaderTest {
  @TempDir Path dir;

  private static String project(String base, String properties, String plugin) {
    return """
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <artifactId>m</artifactId>
          <properties>%s</properties>
          <build>
            <directory>%s/target</directory>
            <outputDirectory>%s/target/classes</outputDirectory>
            <testOutputDirectory>%s/target/test-classes</testOutputDirectory>
            <plugins>%s</plugins>
          </build>
        </project>
        """.formatted(properties, base, base, base, plugin);
  }

  private EffectivePom write(String xml) throws Exception {
    Path file = dir.resolve("effective.xml");
    Files.writeString(file, xml);
    return EffectivePom.read(file);
  }

  private SurefireConfig config(EffectivePom pom, Path module) {
    return SurefireConfigReader.read(pom.module(module).orElseThrow().project(), module);
  }

  @Test
  void theDefaultTestExecutionOverridesThePluginConfigurationAndReferencesResolve() throws Exception {
    Path a = dir.resolve("a");
    EffectivePom pom = write("<projects>" + project(a.toString(), "<agent>-Dagent=1</agent><p>P</p>", """
        <plugin>
          <artifactId>maven-surefire-plugin</artifactId>
          <configuration>
            <argLine>-Xmx64m</argLine>
            <includes><include>**/*Check.java, **/*Test.java</include></includes>
          </configuration>
          <executions>
            <execution><id>default-test</id>
              <configuration>
                <argLine>@{agent} ${argLine} @{jacocoArgLine}
                   -Dp=${p}</argLine>
                <excludes><exclude>**/Slow*.java</exclude></excludes>
                <systemPropertyVariables><k>v</k><left>${nowhere}</left></systemPropertyVariables>
                <environmentVariables><E>x y</E></environmentVariables>
                <groups>fast, medium</groups>
                <workingDirectory>wd</workingDirectory>
                <additionalClasspathElements>
                  <additionalClasspathElement>${p}-extra, /abs/versions/11</additionalClasspathElement>
                </additionalClasspathElements>
                <classpathDependencyExcludes><classpathDependencyExclude>org.slf4j:*</classpathDependencyExclude></classpathDependencyExcludes>
                <properties><configurationParameters>
                  junit.jupiter.execution.parallel.enabled = true
                  a.b=c
                </configurationParameters></properties>
              </configuration>
            </execution>
            <execution><id>other</id><configuration><argLine>-Dignored</argLine></configuration></execution>
          </executions>
        </plugin>
        """) + "</projects>");

    SurefireConfig c = config(pom, a);

    // @{agent} from the properties; ${argLine} and @{jacocoArgLine} name nothing and become empty
    assertEquals("-Dagent=1     -Dp=P", c.argLine().replaceAll(" {2,}", "     "));
    assertEquals(List.of("**/*Check.java", "**/*Test.java"), c.includes());
    assertEquals(List.of("**/Slow*.java"), c.excludes());
    assertEquals(Map.of("k", "v", "left", "${nowhere}"), c.systemProperties());
    assertEquals(Map.of("E", "x y"), c.environment());
    assertEquals(Optional.of("fast, medium"), c.groups());
    assertEquals(Optional.of(a.resolve("wd")), c.workingDirectory());
    assertEquals(Map.of("junit.jupiter.execution.parallel.enabled", "true", "a.b", "c"), c.configurationParameters());
    assertTrue(c.skipReason().isEmpty());
    assertEquals(List.of(a.resolve("P-extra"), Path.of("/abs/versions/11")), c.additionalClasspathElements());
    assertEquals(List.of("org.slf4j:*"), c.classpathDependencyExcludes());
  }

  /** What Surefire does with them: excluded dependencies off the class path, the additional elements after the rest. */
  @Test
  void theTestClasspathLeavesOutExcludedDependenciesAndEndsWithTheAdditionalElements() {
    Path m2 = Path.of("/home/u/.m2/repository");
    Path slf4j = m2.resolve("org/slf4j/slf4j-api/2.0.9/slf4j-api-2.0.9.jar");
    Path simple = m2.resolve("org/slf4j/slf4j-simple/2.0.9/slf4j-simple-2.0.9.jar");
    Path guava = m2.resolve("com/google/guava/guava/33.0-jre/guava-33.0-jre.jar");
    Path guavaTests = m2.resolve("com/google/guava/guava/33.0-jre/guava-33.0-jre-tests.jar");
    Path sibling = Path.of("/p/core/target/classes"); // a reactor module's classes: never an artifact
    Path tests = Path.of("/p/m/target/test-classes");
    Path classes = Path.of("/p/m/target/classes");
    Path extra = classes.resolve("META-INF/versions/11");
    SurefireConfig c = new SurefireConfig(List.of(), List.of(), Optional.empty(), Optional.empty(), Optional.empty(),
        "", Map.of(), Map.of(), Optional.empty(), Map.of(), Optional.empty(), List.of(extra),
        List.of("org.slf4j:slf4j-simple", "com.google.*:gua*"));

    assertEquals(List.of(tests, classes, slf4j, sibling, extra),
        c.testClasspath(List.of(tests, classes, slf4j, simple, guava, guavaTests, sibling)));
    assertTrue(SurefireConfig.excludes("*:slf4j-api", slf4j));
    assertTrue(SurefireConfig.excludes("org.slf4j:slf4j-api:jar", slf4j));
    assertTrue(!SurefireConfig.excludes("slf4j:slf4j-api", slf4j), "a group is matched whole, not by its last part");
    assertTrue(!SurefireConfig.excludes("org.slf4j", slf4j), "no artifactId: not a pattern Surefire takes");
    assertTrue(!SurefireConfig.excludes("org.slf4j:slf4j-api", sibling));
    // a repository elsewhere, not named "repository": the directories above the artifact's
    assertTrue(SurefireConfig.excludes("org.slf4j:slf4j-api", Path.of("/cache/m2/org/slf4j/slf4j-api/2.0.9/slf4j-api-2.0.9.jar")));
  }

  @Test
  void parametersSurefireTakesFromPropertiesFallBackToTheModulesProperties() throws Exception {
    Path m = dir.resolve("m");
    EffectivePom pom = write(project(m.toString(),
        "<argLine>-Dfrom=property</argLine><skipTests>true</skipTests><test>OnlyThis</test>",
        "<plugin><artifactId>maven-surefire-plugin</artifactId></plugin>"));

    SurefireConfig c = config(pom, m);

    assertEquals("-Dfrom=property", c.argLine());
    assertEquals(Optional.of("OnlyThis"), c.test());
    assertEquals(Optional.of("its pom sets the property skipTests=true"), c.skipReason());
  }

  @Test
  void aModuleWithoutSurefireHasTheDefaults() throws Exception {
    Path m = dir.resolve("m");
    SurefireConfig c = config(write(project(m.toString(), "", "")), m);
    assertEquals(SurefireConfig.DEFAULTS, c);
  }

  /**
   * The help plugin, run after other goals (commons-pool), writes a second XML declaration after its header and
   * properties set during the build, one of them not an XML name.
   */
  @Test
  void aRepeatedXmlDeclarationAndAPropertyWithAnIllegalNameAreRead() throws Exception {
    Path m = dir.resolve("m");
    String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- Effective POM for project -->\n"
        + "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + project(m.toString(),
            "\n    <javaTarget.qualifier></javaTarget.qualifier>\n    <javaTarget.qualifier?></javaTarget.qualifier?>\n"
                + "    <forkArg>-Dx=1</forkArg>\n", "");
    assertEquals(SurefireConfig.DEFAULTS, config(write(xml), m));
  }
}
