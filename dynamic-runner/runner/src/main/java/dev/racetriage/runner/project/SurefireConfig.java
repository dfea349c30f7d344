package dev.racetriage.runner.project;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a module's Surefire configuration says about running its tests, as Maven itself resolved it (read from the
 * effective POM, see {@link EffectivePom}). Patterns are Surefire's own ({@code **}{@code /*Test.java},
 * {@code %regex[…]}); {@code argLine} has its {@code ${…}}/{@code @{…}} references already replaced.
 *
 * @param includes      {@code <includes>}; empty means Surefire's defaults (applied by the launcher)
 * @param excludes      {@code <excludes>}; empty means Surefire's default ({@code **}{@code /*$*}, inner classes)
 * @param test          a {@code <test>} in the pom (the {@code -Dtest} syntax), which overrides includes/excludes
 * @param groups        JUnit 5 tag expressions (JUnit 4 categories by class name), comma-separated
 * @param workingDirectory where the test JVM runs; empty means the module directory
 * @param skipReason    why {@code mvn test} would not run this module's tests ({@code skipTests}…), if it would not
 * @param additionalClasspathElements {@code <additionalClasspathElements>}: directories or jars Surefire appends to the
 *                      test class path (after the dependencies), resolved against the module directory
 * @param classpathDependencyExcludes {@code <classpathDependencyExcludes>}: dependencies Surefire leaves off the test
 *                      class path, as {@code groupId:artifactId} patterns ({@code *} matches any run of characters)
 */
public record SurefireConfig(
    List<String> includes,
    List<String> excludes,
    Optional<String> test,
    Optional<String> groups,
    Optional<String> excludedGroups,
    String argLine,
    Map<String, String> systemProperties,
    Map<String, String> environment,
    Optional<Path> workingDirectory,
    Map<String, String> configurationParameters,
    Optional<String> skipReason,
    List<Path> additionalClasspathElements,
    List<String> classpathDependencyExcludes) {

  /** A module without any Surefire configuration: what {@code mvn test} does by default. */
  public static final SurefireConfig DEFAULTS = new SurefireConfig(List.of(), List.of(), Optional.empty(),
      Optional.empty(), Optional.empty(), "", Map.of(), Map.of(), Optional.empty(), Map.of(), Optional.empty(), List.of(),
      List.of());

  public SurefireConfig {
    includes = List.copyOf(includes);
    excludes = List.copyOf(excludes);
    systemProperties = Map.copyOf(systemProperties);
    environment = Map.copyOf(environment);
    configurationParameters = Map.copyOf(configurationParameters);
    additionalClasspathElements = List.copyOf(additionalClasspathElements);
    classpathDependencyExcludes = List.copyOf(classpathDependencyExcludes);
  }

  /**
   * The test class path as Surefire builds it from the one Maven resolved ({@code resolved}: test classes, classes,
   * then the dependencies): without the dependencies {@code <classpathDependencyExcludes>} names, then the
   * {@code <additionalClasspathElements>}. A dependency is recognised by its place in a Maven repository
   * ({@code …/repository/group/path/artifactId/version/artifactId-version….jar}); the module's own output
   * directories never match.
   */
  public List<Path> testClasspath(List<Path> resolved) {
    List<Path> classpath = new java.util.ArrayList<>();
    for (int i = 0; i < resolved.size(); i++) {
      Path entry = resolved.get(i);
      if (i < 2 || classpathDependencyExcludes.stream().noneMatch(p -> excludes(p, entry))) {
        classpath.add(entry);
      }
    }
    for (Path extra : additionalClasspathElements) {
      if (!classpath.contains(extra)) {
        classpath.add(extra);
      }
    }
    return classpath;
  }

  /** True if {@code pattern} ({@code groupId:artifactId[:…]}, with {@code *} wildcards) names the artifact at {@code jar}. */
  static boolean excludes(String pattern, Path jar) {
    String[] parts = pattern.strip().split(":");
    if (parts.length < 2 || jar.getNameCount() < 4) {
      return false;
    }
    String version = jar.getParent().getFileName().toString();
    String artifactId = jar.getParent().getParent().getFileName().toString();
    String file = jar.getFileName().toString();
    if (!file.startsWith(artifactId + "-" + version)) {
      return false; // not laid out as in a Maven repository
    }
    if (!glob(parts[1]).matcher(artifactId).matches()) {
      return false;
    }
    // the group is the directories between the repository (the nearest directory named "repository", as Maven's
    // ~/.m2/repository) and the artifact's; without one, any run of directories just above the artifact's
    Path groupDirs = jar.getParent().getParent().getParent();
    int root = -1;
    for (int i = groupDirs.getNameCount() - 1; i >= 0; i--) {
      if (groupDirs.getName(i).toString().equals("repository")) {
        root = i;
        break;
      }
    }
    java.util.regex.Pattern group = glob(parts[0]);
    StringBuilder groupId = new StringBuilder();
    for (int i = groupDirs.getNameCount() - 1; i > root; i--) {
      groupId.insert(0, groupDirs.getName(i).toString());
      if ((root < 0 || i == root + 1) && group.matcher(groupId).matches()) {
        return true;
      }
      groupId.insert(0, '.');
    }
    return false;
  }

  private static java.util.regex.Pattern glob(String pattern) {
    StringBuilder regex = new StringBuilder();
    for (String literal : pattern.split("\\*", -1)) {
      if (regex.length() > 0 || pattern.startsWith("*")) {
        regex.append(".*");
      }
      regex.append(java.util.regex.Pattern.quote(literal));
    }
    return java.util.regex.Pattern.compile(regex.toString());
  }

  public boolean skipped() {
    return skipReason.isPresent();
  }
}
