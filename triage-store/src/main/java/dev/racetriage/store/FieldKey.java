package dev.racetriage.store;

import java.util.Objects;

/**
 * The one name of a racy location used by every module: the binary class name, '.', the field name
 * ({@code pkg.Outer$Inner.field}); an array race appends {@code []} ({@code pkg.Cls.slots[]}). An array no field
 * holds is keyed by its allocating method as the agent writes it ({@code pkg.Cls.run()[]}), so the member part is
 * only required to be free of dots and white space.
 */
public record FieldKey(String className, String member, boolean array) implements Comparable<FieldKey> {

  public FieldKey {
    Objects.requireNonNull(className, "className");
    Objects.requireNonNull(member, "member");
    if (!isBinaryClassName(className)) {
      throw new IllegalArgumentException("'" + className + "' is not a binary class name (expected pkg.Outer$Inner)");
    }
    if (member.isEmpty() || member.chars().anyMatch(c -> c == '.' || Character.isWhitespace(c))) {
      throw new IllegalArgumentException("'" + member + "' is not a field name");
    }
  }

  /** Parses {@code pkg.Cls.field} or {@code pkg.Cls.field[]}. */
  public static FieldKey parse(String key) {
    Objects.requireNonNull(key, "key");
    String text = key.strip();
    boolean array = text.endsWith("[]");
    if (array) {
      text = text.substring(0, text.length() - 2);
    }
    int dot = text.lastIndexOf('.');
    if (dot <= 0 || dot == text.length() - 1) {
      throw new IllegalArgumentException(
          "'" + key + "' is not a field key: expected the binary class name, a dot and the field name, "
              + "e.g. com.example.Cache.hash, com.example.Outer$Inner.count or com.example.Buf.slots[]");
    }
    try {
      return new FieldKey(text.substring(0, dot), text.substring(dot + 1), array);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + key + "' is not a field key: " + e.getMessage(), e);
    }
  }

  private static boolean isBinaryClassName(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (String segment : name.split("\\.", -1)) {
      if (segment.isEmpty() || !Character.isJavaIdentifierStart(segment.charAt(0))) {
        return false;
      }
      if (!segment.chars().skip(1).allMatch(Character::isJavaIdentifierPart)) {
        return false;
      }
    }
    return true;
  }

  /** The class name without the package: {@code Outer$Inner}. */
  public String simpleClassName() {
    return className.substring(className.lastIndexOf('.') + 1);
  }

  @Override
  public String toString() {
    return className + "." + member + (array ? "[]" : "");
  }

  @Override
  public int compareTo(FieldKey other) {
    return toString().compareTo(other.toString());
  }
}
