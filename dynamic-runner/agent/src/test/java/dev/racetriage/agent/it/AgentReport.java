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
 * lines are machine-written with a fixed key order.
 */
record AgentReport(List<String> lines, String status, Set<String> racyFields, String summary) {
  private static final Pattern STATUS = Pattern.compile("\"type\":\"status\",\"status\":\"(\\w+)\"");
  private static final Pattern FIELD = Pattern.compile("^\\{\"type\":\"race\",\"field\":\"([^\"]+)\"");

  static AgentReport read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return new AgentReport(List.of(), "missing", Set.of(), "");
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
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
    String prefix = "{\"type\":\"race\",\"field\":\"" + field + "\"";
    for (String line : lines) {
      if (line.startsWith(prefix)) {
        Matcher m = Pattern.compile("\"indices\":\\[([0-9,]*)]").matcher(line);
        if (!m.find()) {
          throw new AssertionError("no \"indices\" in the race line of " + field + ": " + line);
        }
        return m.group(1).isEmpty() ? List.of()
            : java.util.Arrays.stream(m.group(1).split(",")).map(Integer::valueOf).toList();
      }
    }
    return null;
  }

  long summaryNumber(String key) {
    Matcher m = Pattern.compile("\"" + key + "\":(\\d+)").matcher(summary);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }
}
