package dev.racetriage.lsp.findings;

/** Splits field keys ({@code pkg.Outer$Inner.field}, {@code pkg.Cls.slots[]}, a container {@code pkg.Cls.map{}}) the way the whole project spells them. */
public final class FieldKeys {
  private FieldKeys() {}

  public static String fieldName(String fieldKey) {
    String key = fieldKey.endsWith("[]") || fieldKey.endsWith("{}") ? fieldKey.substring(0, fieldKey.length() - 2) : fieldKey;
    return key.substring(key.lastIndexOf('.') + 1);
  }

  /** The binary name of the declaring class, {@code pkg.Outer$Inner}. */
  public static String owner(String fieldKey) {
    String key = fieldKey.endsWith("[]") || fieldKey.endsWith("{}") ? fieldKey.substring(0, fieldKey.length() - 2) : fieldKey;
    int dot = key.lastIndexOf('.');
    return dot < 0 ? "" : key.substring(0, dot);
  }

  public static String of(String ownerBinaryName, String fieldName) {
    return ownerBinaryName + "." + fieldName;
  }
}
