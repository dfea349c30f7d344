package dev.racetriage.launcher.select;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One resolved entry of a Surefire test filter: a class pattern, a method pattern, or both (Surefire's
 * {@code ResolvedTest}). Class patterns match a class file path ({@code pkg/MyTest.class}): {@code MyTest} becomes
 * {@code **}{@code /MyTest}, {@code pkg.MyTest} becomes {@code **}{@code /pkg/MyTest}, {@code .java} is read as
 * {@code .class}; a {@code %regex[…]} class pattern is matched against the whole class file path.
 */
final class TestPattern {
  private final String description;
  private final List<AntPath> classPaths;
  private final Pattern classRegex;
  private final AntPath methodGlob;
  private final Pattern methodRegex;

  private TestPattern(String description, List<AntPath> classPaths, Pattern classRegex, AntPath methodGlob,
      Pattern methodRegex) {
    this.description = description;
    this.classPaths = classPaths;
    this.classRegex = classRegex;
    this.methodGlob = methodGlob;
    this.methodRegex = methodRegex;
  }

  /** A plain (Ant-style) pattern; either part may be null. */
  static TestPattern plain(String classPattern, String methodPattern) {
    List<AntPath> classPaths = null;
    if (classPattern != null) {
      String path = classFilePattern(classPattern);
      classPaths = new ArrayList<>();
      classPaths.add(new AntPath(path));
      if (!path.endsWith(".*") && !path.endsWith(".class")) {
        classPaths.add(0, new AntPath(path + ".class"));
      }
    }
    return new TestPattern(describe(classPattern, methodPattern), classPaths, null,
        methodPattern == null ? null : new AntPath(methodPattern), null);
  }

  /** A {@code %regex[class#method]} pattern, unwrapped; either part may be null. */
  static TestPattern regex(String classRegex, String methodRegex) {
    return new TestPattern("%regex[" + describe(classRegex, methodRegex) + "]", null,
        classRegex == null ? null : compile(classRegex), null, methodRegex == null ? null : compile(methodRegex));
  }

  private static Pattern compile(String regex) {
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("'" + regex + "' is not a valid regular expression: " + e.getDescription());
    }
  }

  /** Surefire's reformatting of a class pattern into a class-file path pattern. */
  private static String classFilePattern(String pattern) {
    String path = pattern.endsWith(".java") ? pattern.substring(0, pattern.length() - 5) + ".class" : pattern;
    if (path.endsWith(".class")) {
      path = path.substring(0, path.length() - 6).replace('.', '/') + ".class";
    } else if (!path.contains("/")) {
      if (path.endsWith(".*")) {
        String name = path.substring(0, path.length() - 2);
        path = name.contains(".") ? name.replace('.', '/') + ".*" : path;
      } else {
        path = path.replace('.', '/');
      }
    }
    return path.startsWith("**/") ? path : "**/" + path;
  }

  private static String describe(String classPart, String methodPart) {
    if (classPart == null) return "#" + methodPart;
    return methodPart == null ? classPart : classPart + "#" + methodPart;
  }

  boolean hasClassPattern() {
    return classPaths != null || classRegex != null;
  }

  boolean hasMethodPattern() {
    return methodGlob != null || methodRegex != null;
  }

  /** Surefire's {@code matchAsInclusive}: an unknown method (a class-level check) is not held against it. */
  boolean includes(String classFile, String method) {
    return matchClass(classFile) && (method == null || matchMethod(method));
  }

  /**
   * Surefire's {@code matchAsExclusive}: a method exclusion never excludes a whole class, and a class exclusion
   * excludes all its methods.
   */
  boolean excludes(String classFile, String method) {
    if (method == null && hasMethodPattern()) return false;
    return matchClass(classFile) && (method == null || matchMethod(method));
  }

  private boolean matchClass(String classFile) {
    if (classRegex != null) return classRegex.matcher(classFile).matches();
    if (classPaths == null) return true;
    return classPaths.stream().anyMatch(p -> p.matches(classFile));
  }

  private boolean matchMethod(String method) {
    if (methodRegex != null) return methodRegex.matcher(method).matches();
    return methodGlob == null || methodGlob.matches(method);
  }

  @Override
  public String toString() {
    return description;
  }
}
