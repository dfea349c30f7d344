package dev.racetriage.store.replay;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Command lines a user can paste into a POSIX shell: every word that holds anything but plain characters is put in
 * single quotes (a quote inside becomes {@code '\''}), so {@code ;}, {@code $}, {@code ()} and {@code []} in a field
 * key, a test name or an agent argument never reach the shell as syntax.
 */
public final class ShellWords {
  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

  private ShellWords() {}

  public static String quote(String word) {
    if (!word.isEmpty() && SAFE.matcher(word).matches()) return word;
    return "'" + word.replace("'", "'\\''") + "'";
  }

  public static String join(List<String> words) {
    return words.stream().map(ShellWords::quote).collect(Collectors.joining(" "));
  }
}
