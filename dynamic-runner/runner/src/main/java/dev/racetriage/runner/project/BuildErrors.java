package dev.racetriage.runner.project;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a user needs of a failed Maven build: its error lines without colour codes and without Maven's boilerplate
 * ("-> [Help 1]", "Re-run Maven using the -X switch", the wiki links), which otherwise make a dozen lines of noise
 * around the one line that says what is wrong.
 */
final class BuildErrors {
  private static final Pattern ANSI = Pattern.compile("\\u001B\\[[0-9;?]*[A-Za-z]");
  private static final List<String> NOISE = List.of("-> [Help 1]", "[Help 1]", "To see the full stack trace",
      "Re-run Maven using", "For more information about the errors", "After correcting the problems",
      "mvn <args> -rf", "http://cwiki.apache.org", "See dump files", "See /");

  private BuildErrors() {}

  static String essence(String output) {
    List<String> kept = new ArrayList<>();
    for (String raw : ANSI.matcher(output).replaceAll("").split("\\R")) {
      String line = raw.stripTrailing();
      String text = line.startsWith("[ERROR]") ? line.substring("[ERROR]".length()).strip() : line.strip();
      if (text.isEmpty() || NOISE.stream().anyMatch(text::contains)) continue;
      kept.add(line);
    }
    return kept.isEmpty() ? ANSI.matcher(output).replaceAll("") : String.join(System.lineSeparator(), kept);
  }
}
