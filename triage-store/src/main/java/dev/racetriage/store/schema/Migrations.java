package dev.racetriage.store.schema;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ordered schema steps. The bundled ones are SQL resources listed, one file name per line, in
 * {@code dev/racetriage/store/schema/migrations.txt}; line {@code n} is schema version {@code n}. A released step is
 * never edited: a change to the schema is a new file appended to the list. A step is written in SQLite's dialect;
 * where PostgreSQL needs other statements (a SQLite table rebuild), {@code NNN-name.postgresql.sql} beside it holds
 * them.
 */
public final class Migrations {
  private static final String BASE = "/dev/racetriage/store/schema/";
  /** Engines a step may have a variant for: {@code 003-run-owner.postgresql.sql} replaces 003 on PostgreSQL. */
  private static final List<String> ENGINES = List.of("postgresql");

  private final List<Migration> steps;

  public Migrations(List<Migration> steps) {
    for (int i = 0; i < steps.size(); i++) {
      if (steps.get(i).version() != i + 1) {
        throw new IllegalArgumentException("migration " + steps.get(i).name() + " must be version " + (i + 1));
      }
    }
    this.steps = List.copyOf(steps);
  }

  public static Migrations bundled() {
    List<Migration> steps = new ArrayList<>();
    for (String name : resource("migrations.txt").split("\n")) {
      if (!name.isBlank() && !name.strip().startsWith("#")) {
        String file = name.strip();
        Map<String, String> variants = new HashMap<>();
        for (String engine : ENGINES) {
          String variant = optionalResource(file.replaceFirst("\\.sql$", "." + engine + ".sql"));
          if (variant != null) {
            variants.put(engine, variant);
          }
        }
        steps.add(new Migration(steps.size() + 1, file, resource(file), variants));
      }
    }
    return new Migrations(steps);
  }

  private static String resource(String name) {
    String text = optionalResource(name);
    if (text == null) {
      throw new IllegalStateException("schema resource " + BASE + name + " is missing from the racetriage jar");
    }
    return text;
  }

  private static String optionalResource(String name) {
    try (InputStream in = Migrations.class.getResourceAsStream(BASE + name)) {
      if (in == null) {
        return null;
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read schema resource " + BASE + name, e);
    }
  }

  public List<Migration> steps() {
    return steps;
  }

  /** The schema version a fully migrated file has ({@code PRAGMA user_version}). */
  public int latestVersion() {
    return steps.size();
  }

  /** The steps that take a file from {@code version} to the latest. */
  public List<Migration> after(int version) {
    return steps.subList(Math.min(version, steps.size()), steps.size());
  }
}
