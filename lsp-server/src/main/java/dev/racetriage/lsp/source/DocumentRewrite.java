package dev.racetriage.lsp.source;

import dev.racetriage.lsp.documents.LineIndex;
import java.util.List;
import java.util.Map;
import org.eclipse.jdt.core.JavaCore;
import org.eclipse.jdt.core.dom.rewrite.ASTRewrite;
import org.eclipse.jdt.core.formatter.DefaultCodeFormatterConstants;
import org.eclipse.jface.text.BadLocationException;
import org.eclipse.jface.text.Document;
import org.eclipse.lsp4j.TextEdit;

/**
 * Turns an {@link ASTRewrite} of a document into LSP text edits. The rewrite is applied to a copy of the text and the
 * difference is sent as one edit spanning the changed region: JDT's edit trees may hold move and copy edits that LSP
 * cannot express, while the resulting text is exactly what JDT produced (its formatting and indentation).
 */
public final class DocumentRewrite {
  private DocumentRewrite() {}

  public static String apply(ASTRewrite rewrite, String text) {
    Document document = new Document(text);
    try {
      rewrite.rewriteAST(document, formatterOptions(text)).apply(document);
    } catch (BadLocationException e) {
      throw new IllegalStateException("JDT produced an edit outside the document; the quick fix is not applied", e);
    }
    return document.get();
  }

  public static List<TextEdit> edits(ASTRewrite rewrite, String text) {
    return diff(text, apply(rewrite, text));
  }

  /** One edit that replaces the region where {@code before} and {@code after} differ (none if they are equal). */
  public static List<TextEdit> diff(String before, String after) {
    if (before.equals(after)) {
      return List.of();
    }
    int prefix = 0;
    int max = Math.min(before.length(), after.length());
    while (prefix < max && before.charAt(prefix) == after.charAt(prefix)) {
      prefix++;
    }
    int suffix = 0;
    while (suffix < max - prefix
        && before.charAt(before.length() - 1 - suffix) == after.charAt(after.length() - 1 - suffix)) {
      suffix++;
    }
    LineIndex lines = LineIndex.of(before);
    return List.of(new TextEdit(lines.range(prefix, before.length() - suffix - prefix),
        after.substring(prefix, after.length() - suffix)));
  }

  /** JDT's defaults indent with tabs; a file indented with spaces must stay so. */
  static Map<String, String> formatterOptions(String text) {
    Map<String, String> options = JavaCore.getOptions();
    JavaCore.setComplianceOptions(JavaCore.VERSION_17, options);
    int indent = detectSpaceIndent(text);
    if (indent > 0) {
      options.put(DefaultCodeFormatterConstants.FORMATTER_TAB_CHAR, JavaCore.SPACE);
      options.put(DefaultCodeFormatterConstants.FORMATTER_TAB_SIZE, Integer.toString(indent));
      options.put(DefaultCodeFormatterConstants.FORMATTER_INDENTATION_SIZE, Integer.toString(indent));
    }
    return options;
  }

  /** The smallest indentation of a space-indented line, or 0 if the file indents with tabs or not at all. */
  static int detectSpaceIndent(String text) {
    int smallest = 0;
    for (String line : text.split("\r?\n|\r")) {
      if (line.startsWith("\t")) {
        return 0;
      }
      int spaces = 0;
      while (spaces < line.length() && line.charAt(spaces) == ' ') {
        spaces++;
      }
      if (spaces > 0 && spaces < line.length() && line.charAt(spaces) != '*' && (smallest == 0 || spaces < smallest)) {
        smallest = spaces;
      }
    }
    return smallest;
  }
}
