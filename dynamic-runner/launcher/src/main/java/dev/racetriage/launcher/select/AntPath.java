package dev.racetriage.launcher.select;

import java.util.regex.Pattern;

/**
 * Ant-style path matching as Surefire does it ({@code SelectorUtils.matchPath}): {@code /}-separated segments,
 * {@code **} matches any number of segments (none too), {@code *} any characters within a segment, {@code ?} one.
 * Case-sensitive.
 */
final class AntPath {
  private final String[] segments;
  private final Pattern[] globs;

  AntPath(String pattern) {
    segments = split(pattern);
    globs = new Pattern[segments.length];
    for (int i = 0; i < segments.length; i++) {
      globs[i] = segments[i].equals("**") ? null : glob(segments[i]);
    }
  }

  boolean matches(String path) {
    return match(0, split(path), 0);
  }

  private boolean match(int p, String[] path, int s) {
    if (p == segments.length) {
      return s == path.length;
    }
    if (globs[p] == null) {
      // ** : try every number of skipped segments
      for (int skip = s; skip <= path.length; skip++) {
        if (match(p + 1, path, skip)) return true;
      }
      return false;
    }
    return s < path.length && globs[p].matcher(path[s]).matches() && match(p + 1, path, s + 1);
  }

  private static String[] split(String path) {
    return path.isEmpty() ? new String[0] : path.split("/", -1);
  }

  private static Pattern glob(String segment) {
    StringBuilder regex = new StringBuilder();
    StringBuilder literal = new StringBuilder();
    for (char c : segment.toCharArray()) {
      if (c == '*' || c == '?') {
        regex.append(Pattern.quote(literal.toString()));
        literal.setLength(0);
        regex.append(c == '*' ? ".*" : ".");
      } else {
        literal.append(c);
      }
    }
    regex.append(Pattern.quote(literal.toString()));
    return Pattern.compile(regex.toString(), Pattern.DOTALL);
  }
}
