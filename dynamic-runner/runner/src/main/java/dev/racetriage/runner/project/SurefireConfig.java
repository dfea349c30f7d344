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
    Optional<String> skipReason) {

  /** A module without any Surefire configuration: what {@code mvn test} does by default. */
  public static final SurefireConfig DEFAULTS = new SurefireConfig(List.of(), List.of(), Optional.empty(),
      Optional.empty(), Optional.empty(), "", Map.of(), Map.of(), Optional.empty(), Map.of(), Optional.empty());

  public SurefireConfig {
    includes = List.copyOf(includes);
    excludes = List.copyOf(excludes);
    systemProperties = Map.copyOf(systemProperties);
    environment = Map.copyOf(environment);
    configurationParameters = Map.copyOf(configurationParameters);
  }

  public boolean skipped() {
    return skipReason.isPresent();
  }
}
