package dev.racetriage.launcher.select;

import java.util.ArrayList;
import java.util.List;

/**
 * A Surefire test filter: the {@code -Dtest} syntax, or a pom's includes and excludes (Surefire's
 * {@code TestListResolver}). A comma-separated list of patterns; {@code !} excludes. Each pattern is
 * {@code Class}, {@code pkg.Class}, {@code pkg/**}{@code /Class.java}, with {@code *} and {@code **} wildcards, an
 * optional {@code #method} part ({@code #m1+m2}, {@code #test*}), or {@code %regex[classRegex#methodRegex]}. A test
 * runs when it matches an inclusion (or there is none) and no exclusion; a method exclusion never drops a whole
 * class.
 */
public final class TestSpec {
  private static final String REGEX_PREFIX = "%regex[";

  private final String text;
  private final List<TestPattern> included;
  private final List<TestPattern> excluded;

  private TestSpec(String text, List<TestPattern> included, List<TestPattern> excluded) {
    this.text = text;
    this.included = List.copyOf(included);
    this.excluded = List.copyOf(excluded);
  }

  /**
   * Parses the {@code -Dtest} syntax.
   *
   * @throws IllegalArgumentException naming the faulty pattern and the expected syntax
   */
  public static TestSpec parse(String spec) {
    List<TestPattern> included = new ArrayList<>();
    List<TestPattern> excluded = new ArrayList<>();
    for (String entry : spec.split(",")) {
      String request = entry.strip();
      if (request.isEmpty() || request.equals("!")) continue;
      boolean exclusion = request.startsWith("!");
      List<TestPattern> patterns = resolve(exclusion ? request.substring(1).strip() : request);
      (exclusion ? excluded : included).addAll(patterns);
    }
    if (included.isEmpty() && excluded.isEmpty()) {
      throw new IllegalArgumentException("the test filter '" + spec + "' names no test; " + SYNTAX);
    }
    return new TestSpec(spec, included, excluded);
  }

  /**
   * A pom's {@code <includes>} and {@code <excludes>}. They cannot name methods, as in Surefire.
   *
   * @throws IllegalArgumentException for a method filter or a {@code !} in them
   */
  public static TestSpec includesExcludes(List<String> includes, List<String> excludes) {
    List<TestPattern> included = new ArrayList<>();
    List<TestPattern> excluded = new ArrayList<>();
    for (String include : includes) {
      forbidMethods(include, "include");
      included.addAll(resolve(include.strip()));
    }
    for (String exclude : excludes) {
      forbidMethods(exclude, "exclude");
      if (exclude.contains("!")) {
        throw new IllegalArgumentException("'!' is not expected in the exclude '" + exclude + "'");
      }
      excluded.addAll(resolve(exclude.strip()));
    }
    return new TestSpec(String.join(",", includes) + " !" + String.join(",", excludes), included, excluded);
  }

  static final String SYNTAX = "use Surefire's -Dtest syntax: a comma-separated list of Class, pkg.Class, "
      + "Class#method, Class#m1+m2, wildcards (My*Test, **/it/*Test, #test*), !exclusions, "
      + "or %regex[classRegex#methodRegex]";

  private static void forbidMethods(String pattern, String what) {
    if (pattern.contains("#")) {
      throw new IllegalArgumentException("a method filter is not allowed in the " + what + " '" + pattern
          + "' (as in Surefire); name methods with --tests/-Dtest");
    }
  }

  private static List<TestPattern> resolve(String request) {
    List<TestPattern> patterns = new ArrayList<>();
    if (request.contains(REGEX_PREFIX)) {
      if (!request.startsWith(REGEX_PREFIX) || !request.endsWith("]") || request.length() <= REGEX_PREFIX.length() + 1
          || request.indexOf(REGEX_PREFIX, 1) != -1) {
        throw new IllegalArgumentException("'" + request + "' is not a valid test pattern: expected "
            + "%regex[classRegex#methodRegex] or !%regex[…], with an optional class or #method part");
      }
      String body = request.substring(REGEX_PREFIX.length(), request.length() - 1);
      String[] parts = classAndMethod(body, request);
      if (parts[0] != null || parts[1] != null) patterns.add(TestPattern.regex(parts[0], parts[1]));
      return patterns;
    }
    String[] parts = classAndMethod(request, request);
    if (parts[1] == null) {
      if (parts[0] != null) patterns.add(TestPattern.plain(parts[0], null));
      return patterns;
    }
    for (String method : parts[1].split("\\+")) {
      String m = blankToNull(method);
      if (parts[0] != null || m != null) patterns.add(TestPattern.plain(parts[0], m));
    }
    return patterns;
  }

  /** Splits at the one {@code #}; blank parts become null. */
  private static String[] classAndMethod(String text, String request) {
    int hash = text.indexOf('#');
    if (hash == -1) return new String[] {blankToNull(text), null};
    if (text.indexOf('#', hash + 1) != -1) {
      throw new IllegalArgumentException("'" + request + "' has more than one '#': give one Class#method per "
          + "pattern and list several with commas or Class#m1+m2");
    }
    return new String[] {blankToNull(text.substring(0, hash)), blankToNull(text.substring(hash + 1))};
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }

  /** The class file path Surefire matches patterns against: {@code pkg/Outer$Inner.class}. */
  public static String classFile(String className) {
    return className.replace('.', '/') + ".class";
  }

  /** Whether the class may have tests to run (a method pattern for it is not held against it). */
  public boolean runsClass(String className) {
    return shouldRun(classFile(className), null);
  }

  /** Whether this test method runs. */
  public boolean runsMethod(String className, String method) {
    return shouldRun(classFile(className), method);
  }

  private boolean shouldRun(String classFile, String method) {
    boolean run = included.isEmpty() || included.stream().anyMatch(p -> p.includes(classFile, method));
    return run && excluded.stream().noneMatch(p -> p.excludes(classFile, method));
  }

  /** Whether any pattern names methods: then tests are chosen one by one, not just by class. */
  public boolean hasMethodPatterns() {
    return included.stream().anyMatch(TestPattern::hasMethodPattern)
        || excluded.stream().anyMatch(TestPattern::hasMethodPattern);
  }

  @Override
  public String toString() {
    return text;
  }
}
