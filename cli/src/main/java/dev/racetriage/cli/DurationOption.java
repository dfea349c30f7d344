package dev.racetriage.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads durations the way people type them: {@code 90s}, {@code 10m}, {@code 1h30m}, {@code 2h}. */
final class DurationOption {
  private static final Pattern PART = Pattern.compile("(\\d+)([hms])");

  private DurationOption() {}

  static Duration parse(String option, String text) {
    String t = text.strip().toLowerCase(java.util.Locale.ROOT);
    Matcher m = PART.matcher(t);
    Duration total = Duration.ZERO;
    int end = 0;
    while (m.find()) {
      if (m.start() != end) break;
      long n = Long.parseLong(m.group(1));
      total = total.plus(switch (m.group(2)) {
        case "h" -> Duration.ofHours(n);
        case "m" -> Duration.ofMinutes(n);
        default -> Duration.ofSeconds(n);
      });
      end = m.end();
    }
    if (end != t.length() || end == 0 || total.isZero()) {
      throw new IllegalArgumentException(option + " takes a duration such as 90s, 10m or 1h30m, not '" + text + "'");
    }
    return total;
  }
}
