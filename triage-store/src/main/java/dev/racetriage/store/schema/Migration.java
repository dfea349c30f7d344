package dev.racetriage.store.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One numbered schema step: version {@code n} is reached by running its statements on a version {@code n-1} store.
 * {@code sql} is written in SQLite's dialect (each engine rewrites its types); {@code variants} holds, by engine name,
 * the script of an engine that needs other statements (a SQLite table rebuild is an ALTER elsewhere).
 */
public record Migration(int version, String name, String sql, Map<String, String> variants) {
  public Migration {
    variants = Map.copyOf(variants);
  }

  public Migration(int version, String name, String sql) {
    this(version, name, sql, Map.of());
  }

  /** The script for the engine named {@code engine}: its variant if it has one, else the common one. */
  public String sqlFor(String engine) {
    return variants.getOrDefault(engine, sql);
  }

  /** The statements of the script for {@code engine}. */
  public List<String> statements(String engine) {
    return split(sqlFor(engine));
  }

  /** The statements of the script: split at a ';' that ends a line, with '--' comment lines dropped. */
  public List<String> statements() {
    return split(sql);
  }

  private static List<String> split(String sql) {
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
