package dev.racetriage.store.schema;

import java.util.ArrayList;
import java.util.List;

/** One numbered schema step: version {@code n} is reached by running its statements on a version {@code n-1} file. */
public record Migration(int version, String name, String sql) {

  /** The statements of the script: split at a ';' that ends a line, with '--' comment lines dropped. */
  public List<String> statements() {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : sql.split("\n")) {
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("--")) {
        continue;
      }
      current.append(line).append('\n');
      if (trimmed.endsWith(";")) {
        statements.add(current.toString().strip());
        current.setLength(0);
      }
    }
    if (!current.toString().isBlank()) {
      statements.add(current.toString().strip());
    }
    return statements;
  }
}
