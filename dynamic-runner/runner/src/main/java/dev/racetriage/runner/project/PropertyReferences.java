package dev.racetriage.runner.project;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces the {@code ${name}} and {@code @{name}} references Maven left in a configuration value with the module's
 * properties. Maven resolves every reference it can when it builds the effective POM; what is left names a property
 * only a plugin sets while the build runs (JaCoCo's {@code argLine}) or none at all.
 */
final class PropertyReferences {
  private static final Pattern REFERENCE = Pattern.compile("[$@]\\{([^}]+)}");
  /** Enough for a property whose value refers to another; a cycle stops here. */
  private static final int MAX_ROUNDS = 5;

  private PropertyReferences() {}

  /**
   * {@code dropUnresolved}: a reference to no property becomes empty (for {@code argLine}: Surefire would pass
   * {@code @{argLine}} through literally and the JVM would not start — the usual cause is JaCoCo's property when JaCoCo
   * does not run, and nothing useful could come of it); otherwise it stays as written, as Surefire leaves it.
   */
  static String resolve(String value, Map<String, String> properties, boolean dropUnresolved) {
    String current = value;
    for (int round = 0; round < MAX_ROUNDS && REFERENCE.matcher(current).find(); round++) {
      Matcher m = REFERENCE.matcher(current);
      StringBuilder out = new StringBuilder();
      boolean changed = false;
      while (m.find()) {
        String replacement = properties.get(m.group(1));
        if (replacement == null) {
          replacement = dropUnresolved ? "" : m.group();
        } else {
          changed = true;
        }
        m.appendReplacement(out, Matcher.quoteReplacement(replacement));
      }
      m.appendTail(out);
      current = out.toString();
      if (!changed) break;
    }
    return current;
  }
}
