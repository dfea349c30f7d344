package dev.racetriage.lsp;

/**
 * A generated Java file of about the size asked for (the was 1 MB): a double-checked-locking singleton, so
 * the file has a finding to hover, followed by as many ordinary fields and methods as it takes.
 */
final class BigJavaFile {
  static final String CLASS = "BigSingletonBad";
  static final String FIELD_KEY = "demo." + CLASS + ".instance";

  private BigJavaFile() {}

  static String generate(int bytes) {
    StringBuilder text = new StringBuilder(bytes + 1024);
    text.append("package demo;\n\n")
        .append("/** Generated: double-checked locking on a non-volatile field, then bulk. */\n")
        .append("public class ").append(CLASS).append(" {\n")
        .append("  private static ").append(CLASS).append(" instance;\n\n")
        .append("  public static ").append(CLASS).append(" get() {\n")
        .append("    if (instance == null) {\n")
        .append("      synchronized (").append(CLASS).append(".class) {\n")
        .append("        if (instance == null) {\n")
        .append("          instance = new ").append(CLASS).append("();\n")
        .append("        }\n")
        .append("      }\n")
        .append("    }\n")
        .append("    return instance;\n")
        .append("  }\n");
    for (int i = 0; text.length() < bytes; i++) {
      text.append("\n  private final int base").append(i).append(" = ").append(i).append(";\n\n")
          .append("  public int compute").append(i).append("(int a) {\n")
          .append("    int sum = base").append(i).append(";\n")
          .append("    for (int k = 0; k < a; k++) {\n")
          .append("      sum += k * ").append(i % 97).append(" + a;\n")
          .append("    }\n")
          .append("    return sum;\n")
          .append("  }\n");
    }
    return text.append("}\n").toString();
  }

  /** Where the field's name is in its declaration: a hover there shows its finding. */
  static org.eclipse.lsp4j.Position instanceDeclaration() {
    String declaration = "  private static " + CLASS + " instance;";
    return new org.eclipse.lsp4j.Position(4, declaration.indexOf("instance") + 1);
  }
}
