package dev.racetriage.store.projectlock;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Who holds (or last held) a project's lock, as written in {@code .racetriage/triage.lock}: the process, its host,
 * the command it runs ("triage", "daemon") and when it took the lock. One {@code key=value} per line, so a user can
 * read the file too.
 */
public record LockHolder(long pid, String host, String command, Instant started) {

  String toFileText() {
    return "pid=" + pid + "\nhost=" + host + "\ncommand=" + command + "\nstarted=" + started + "\n";
  }

  /** The holder written in {@code text}; empty if the text is not a complete holder (e.g. being written). */
  static Optional<LockHolder> parse(String text) {
    Map<String, String> fields = new HashMap<>();
    for (String line : text.split("\n")) {
      int equals = line.indexOf('=');
      if (equals > 0) {
        fields.put(line.substring(0, equals).strip(), line.substring(equals + 1).strip());
      }
    }
    try {
      return Optional.of(new LockHolder(Long.parseLong(fields.get("pid")), fields.get("host"), fields.get("command"),
          Instant.parse(fields.get("started"))));
    } catch (NumberFormatException | NullPointerException | DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** "triage (PID 4242 on host ci-3, started at 2026-03-01T10:00:00Z)". */
  String describe() {
    return command + " (PID " + pid + " on host " + host + ", started at " + started + ")";
  }
}
