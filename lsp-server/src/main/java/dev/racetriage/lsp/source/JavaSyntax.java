package dev.racetriage.lsp.source;

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
    ASTParser parser = ASTParser.newParser(AST.getJLSLatest());
    parser.setKind(ASTParser.K_COMPILATION_UNIT);
    Map<String, String> options = JavaCore.getOptions();
    JavaCore.setComplianceOptions(JavaCore.VERSION_17, options);
    parser.setCompilerOptions(options);
    parser.setResolveBindings(false);
    parser.setStatementsRecovery(true);
    parser.setSource(text.toCharArray());
    return (CompilationUnit) parser.createAST(null);
  }
}
