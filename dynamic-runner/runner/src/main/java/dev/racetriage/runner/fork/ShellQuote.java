package dev.racetriage.runner.fork;

import java.util.regex.Pattern;

/** Quotes a word for a POSIX shell, only when it needs it, so replay commands stay readable. */
final class ShellQuote {
  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

  private ShellQuote() {}

  static String quote(String word) {
    if (!word.isEmpty() && SAFE.matcher(word).matches()) return word;
    return "'" + word.replace("'", "'\\''") + "'";
  }
}
