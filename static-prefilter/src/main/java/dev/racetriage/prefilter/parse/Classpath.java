package dev.racetriage.prefilter.parse;

import java.nio.file.Path;
import java.util.List;

/**
 * The library classpath the parser resolves bindings against.
 *
 * @param entries jars and class directories
 * @param status where it came from
 * @param detail for a user: how it was obtained, or why it could not be ("no pom.xml", Maven's error)
 */
public record Classpath(List<Path> entries, ClasspathStatus status, String detail) {

  public Classpath {
    entries = List.copyOf(entries);
  }

  public static Classpath none(String why) {
    return new Classpath(List.of(), ClasspathStatus.NONE, why);
  }

  public static Classpath given(List<Path> entries) {
    return new Classpath(entries, ClasspathStatus.GIVEN, "given by the caller");
  }
}
