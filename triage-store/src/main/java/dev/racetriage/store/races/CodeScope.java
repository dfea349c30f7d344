package dev.racetriage.store.races;

import java.util.Collection;
import java.util.Locale;

/**
 * Where a race lives. A race whose every access is in a file under {@code src/test} (a test's own helper threads, a
 * test fixture's static flag) is a <em>test-code race</em>: real, but no user of the product can meet it, so the
 * report, exports, dashboard and editor label it and show it apart from the product's races. Derived from the
 * accesses' project paths wherever they are shown (nothing is stored): the rule is {@link #inTestCode}, in one place.
 */
public enum CodeScope {
  /** Races with at least one access outside test code (or in a file that is not found): what ships. */
  PRODUCT,
  /** Races whose every access is under {@code src/test}. */
  TEST,
  /** Both. */
  ALL;

  /** {@code product}, {@code test}, {@code all}: the word of the CLI, API and pages. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The scope a label names, or null if none does. */
  public static CodeScope ofLabel(String label) {
    for (CodeScope s : values()) {
      if (s.label().equals(label)) return s;
    }
    return null;
  }

  /** Whether a race with this test-code flag belongs to the scope. */
  public boolean includes(boolean testCode) {
    return this == ALL || (this == TEST) == testCode;
  }

  /** A project-relative path in a test source root: a {@code src/test/} segment ({@code core/src/test/java/…}). */
  public static boolean isTestPath(String projectPath) {
    if (projectPath == null) return false;
    String path = "/" + projectPath.replace('\\', '/');
    return path.contains("/src/test/");
  }

  /**
   * Whether a race whose accesses are in these project paths is a test-code race: there is at least one, and each is
   * known and under {@code src/test}. An access whose file was not found (null) may be product code, so it is not.
   */
  public static boolean inTestCode(Collection<String> projectPaths) {
    return !projectPaths.isEmpty() && projectPaths.stream().allMatch(CodeScope::isTestPath);
  }
}
