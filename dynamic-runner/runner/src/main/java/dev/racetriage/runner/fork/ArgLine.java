package dev.racetriage.runner.fork;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a Surefire {@code argLine} into JVM arguments as Surefire does (Plexus' {@code translateCommandline}): at
 * whitespace, except inside single or double quotes, which are removed. No backslash escapes.
 */
final class ArgLine {
  private ArgLine() {}

  /**
   * The argLine's JVM arguments without a coverage agent (JaCoCo's {@code -javaagent:…jacoco…}, usually put there by
   * jacoco-maven-plugin's prepare-agent). Coverage is not what racetriage measures, and the probes it adds to every
   * class — an array every thread writes without synchronisation, by design — would be reported as races (on
   * dropwizard metrics they were every race found). Other agents (Mockito's, a project's own) are kept.
   */
  static List<String> withoutCoverageAgents(List<String> tokens) {
    return tokens.stream().filter(t -> !(t.startsWith("-javaagent:") && t.toLowerCase(java.util.Locale.ROOT)
        .contains("jacoco"))).toList();
  }

  /** @throws IllegalArgumentException for an unbalanced quote, naming the argLine */
  static List<String> tokens(String argLine) {
    List<String> tokens = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean inToken = false;
    char quote = 0;
    for (char c : argLine.toCharArray()) {
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          current.append(c);
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
        inToken = true;
      } else if (Character.isWhitespace(c)) {
        if (inToken) {
          tokens.add(current.toString());
          current.setLength(0);
          inToken = false;
        }
      } else {
        current.append(c);
        inToken = true;
      }
    }
    if (quote != 0) {
      throw new IllegalArgumentException("the Surefire argLine has an unbalanced " + quote + " quote: " + argLine
          + " — fix <argLine> in the pom (or the property it comes from)");
    }
    if (inToken) tokens.add(current.toString());
    return tokens;
  }
}
