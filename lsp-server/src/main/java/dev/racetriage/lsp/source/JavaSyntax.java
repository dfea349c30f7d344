package dev.racetriage.lsp.source;

import dev.racetriage.prefilter.parse.JdtInitialisation;
import java.util.Map;
import org.eclipse.jdt.core.JavaCore;
import org.eclipse.jdt.core.dom.AST;
import org.eclipse.jdt.core.dom.ASTParser;
import org.eclipse.jdt.core.dom.CompilationUnit;

/**
 * Parses one document's text without bindings: quick (no classpath), tolerant of syntax errors (statement recovery),
 * and enough to find declarations and rewrite them. Semantic questions go to the prefilter, which has bindings.
 */
public final class JavaSyntax {
  private JavaSyntax() {}

  public static CompilationUnit parse(String text) {
    return parse(text, false);
  }

  /**
   * The declarations only: method bodies are skipped (about the whole cost of a parse in a large file). What the
   * diagnostics' anchors need; fields of local and anonymous classes are not anchored anyway (see DeclaredFields).
   */
  public static CompilationUnit declarations(String text) {
    return parse(text, true);
  }

  private static CompilationUnit parse(String text, boolean ignoreMethodBodies) {
    JdtInitialisation.ensure(); // before this thread and the project scan's touch JDT's classes at once
    ASTParser parser = ASTParser.newParser(AST.getJLSLatest());
    parser.setKind(ASTParser.K_COMPILATION_UNIT);
    Map<String, String> options = JavaCore.getOptions();
    JavaCore.setComplianceOptions(JavaCore.VERSION_17, options);
    parser.setCompilerOptions(options);
    parser.setResolveBindings(false);
    parser.setStatementsRecovery(true);
    parser.setIgnoreMethodBodies(ignoreMethodBodies);
    parser.setSource(text.toCharArray());
    return (CompilationUnit) parser.createAST(null);
  }
}
