package dev.racetriage.store.schema;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The ordered schema steps. The bundled ones are SQL resources listed, one file name per line, in
 * {@code dev/racetriage/store/schema/migrations.txt}; line {@code n} is schema version {@code n}. A released step is
 * never edited: a change to the schema is a new file appended to the list.
 */
public final class Migrations {
  private static final String BASE = "/dev/racetriage/store/schema/";

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
        steps.add(new Migration(steps.size() + 1, name.strip(), resource(name.strip())));
      }
    }
    return new Migrations(steps);
  }

  private static String resource(String name) {
    try (InputStream in = Migrations.class.getResourceAsStream(BASE + name)) {
      if (in == null) {
        throw new IllegalStateException("schema resource " + BASE + name + " is missing from the racetriage jar");
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
