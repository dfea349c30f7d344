package dev.racetriage.runner.fork;

import dev.racetriage.launcher.select.TestSpec;
import dev.racetriage.runner.project.SurefireConfig;
import dev.racetriage.runner.project.TestModule;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which tests a JVM runs: the named ones (JUnit unique ids), or the module's tests as {@code mvn test} would choose
 * them — its Surefire includes, excludes and groups — or, given a {@code -Dtest}-style filter ({@link #matching}),
 * the tests it names (it overrides the pom's includes and excludes, as {@code -Dtest} does; groups still apply).
 */
public record TestSelection(List<String> uniqueIds, Optional<String> tests) {
  /** The tests {@code mvn test} would run in the module. */
  public static final TestSelection ALL = new TestSelection(List.of(), Optional.empty());

  public TestSelection {
    uniqueIds = List.copyOf(uniqueIds);
  }

  public TestSelection(List<String> uniqueIds) {
    this(uniqueIds, Optional.empty());
  }

  public static TestSelection of(String... uniqueIds) {
    return new TestSelection(List.of(uniqueIds));
  }

  /**
   * The tests a filter in Surefire's {@code -Dtest} syntax names: {@code Class}, {@code pkg.Class},
   * {@code Class#method}, {@code Class#m1+m2}, {@code *}/{@code **}/{@code ?} wildcards, {@code !} exclusions, comma
   * lists, {@code %regex[class#method]}.
   *
   * @throws IllegalArgumentException for a malformed filter, saying what is wrong and the syntax
   */
  public static TestSelection matching(String surefireTestSpec) {
    try {
      TestSpec.parse(surefireTestSpec);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--tests '" + surefireTestSpec + "': " + e.getMessage(), e);
    }
    return new TestSelection(List.of(), Optional.of(surefireTestSpec));
  }

  /** The launcher options that choose these tests in {@code module}. */
  List<String> launcherArguments(TestModule module) {
    List<String> args = new ArrayList<>();
    SurefireConfig surefire = module.surefire();
    if (!uniqueIds.isEmpty()) {
      for (String id : uniqueIds) {
        args.add("--select-id");
        args.add(id);
      }
    } else {
      args.add("--scan");
      args.add(module.testClasses().toString());
      Optional<String> spec = tests.or(surefire::test);
      if (spec.isPresent()) {
        args.add("--tests");
        args.add(spec.get());
      } else {
        surefire.includes().forEach(p -> { args.add("--include"); args.add(p); });
        surefire.excludes().forEach(p -> { args.add("--exclude"); args.add(p); });
      }
    }
    surefire.groups().ifPresent(g -> { args.add("--groups"); args.add(g); });
    surefire.excludedGroups().ifPresent(g -> { args.add("--excluded-groups"); args.add(g); });
    return args;
  }
}
