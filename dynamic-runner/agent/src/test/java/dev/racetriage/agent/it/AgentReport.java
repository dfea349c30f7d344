package dev.racetriage.agent.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parts of an agent report file (JSON lines) the integration tests check: the status line, the raced field keys,
 * the summary line. Read with patterns, not a JSON library: the agent module has no such dependency, and the
 * lines are machine-written with a fixed key order. A detect report repeats a field's line as it grows while the
 * program runs: its last line is its state.
 */
record AgentReport(List<String> lines, String status, Set<String> racyFields, String summary) {
  private static final Pattern STATUS = Pattern.compile("\"type\":\"status\",\"status\":\"(\\w+)\"");
  private static final Pattern FIELD = Pattern.compile("^\\{\"type\":\"race\",\"field\":\"([^\"]+)\"");

  static AgentReport read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return new AgentReport(List.of(), "missing", Set.of(), "");
    }
    // decoded leniently: a JVM killed mid-write may have cut a character in two
    List<String> lines = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).lines().toList();
    String status = "missing";
    String summary = "";
    Set<String> fields = new TreeSet<>();
    for (String line : lines) {
      Matcher s = STATUS.matcher(line);
      if (s.find()) {
        status = s.group(1);
      }
      Matcher f = FIELD.matcher(line);
      if (f.find()) {
        fields.add(f.group(1));
      }
      if (line.startsWith("{\"type\":\"summary\"")) {
        summary = line;
      }
    }
    return new AgentReport(lines, status, fields, summary);
  }

  /**
   * The {@code "indices"} of a raced field's line (the array elements that raced; empty for a field), or null when the
   * field has no race line.
   */
  List<Integer> indices(String field) {
    String line = lastLine(field);
    if (line == null) {
      return null;
    }
    Matcher m = Pattern.compile("\"indices\":\\[([0-9,]*)]").matcher(line);
    if (!m.find()) {
      throw new AssertionError("no \"indices\" in the race line of " + field + ": " + line);
    }
    return m.group(1).isEmpty() ? List.of()
        : java.util.Arrays.stream(m.group(1).split(",")).map(Integer::valueOf).toList();
  }

  /** The last race line of the field, or null. */
  String lastLine(String field) {
    String prefix = "{\"type\":\"race\",\"field\":\"" + field + "\",";
    String last = null;
    for (String line : lines) {
      if (line.startsWith(prefix)) {
        last = line;
      }
    }
    return last;
  }

  /** The summary was written: the JVM exited through its shutdown hooks. */
  boolean complete() {
    return !summary.isEmpty();
  }

  /** How many lines start with {@code prefix} (the summary must be written once). */
  long count(String prefix) {
    return lines.stream().filter(line -> line.startsWith(prefix)).count();
  }

  /** A number of the field's last race line ({@code count}, {@code wr}, {@code ww}). */
  static long number(String line, String key) {
    Matcher m = Pattern.compile("\"" + key + "\":(\\d+)").matcher(line);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  long summaryNumber(String key) {
    Matcher m = Pattern.compile("\"" + key + "\":(\\d+)").matcher(summary);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }
}
