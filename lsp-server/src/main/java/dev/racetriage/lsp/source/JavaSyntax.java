package dev.racetriage.lsp.source;

import dev.racetriage.prefilter.parse.JdtInitialisation;
import java.util.Map;
import java.util.concurrent.CancellationException;
import org.eclipse.core.runtime.OperationCanceledException;
import org.eclipse.jdt.core.JavaCore;
import org.eclipse.jdt.core.dom.AST;
import org.eclipse.jdt.core.dom.ASTParser;
import org.eclipse.jdt.core.dom.CompilationUnit;
import org.eclipse.lsp4j.jsonrpc.CancelChecker;

/**
 * Parses one document's text without bindings: quick (no classpath), tolerant of syntax errors (statement recovery),
 * and enough to find declarations and rewrite them. Semantic questions go to the prefilter, which has bindings.
 */
public final class JavaSyntax {
  private JavaSyntax() {}

  public static CompilationUnit parse(String text) {
    return parse(text, false, () -> { });
  }

  /** @throws CancellationException when {@code cancel} says so before the parse is done */
  public static CompilationUnit parse(String text, CancelChecker cancel) {
    return parse(text, false, cancel);
  }

  /**
   * The declarations only: method bodies are skipped (about the whole cost of a parse in a large file). What the
   * diagnostics' anchors need; fields of local and anonymous classes are not anchored anyway (see DeclaredFields).
   */
  public static CompilationUnit declarations(String text, CancelChecker cancel) {
    return parse(text, true, cancel);
  }

  private static CompilationUnit parse(String text, boolean ignoreMethodBodies, CancelChecker cancel) {
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
    try {
      return (CompilationUnit) parser.createAST(new CancelMonitor(cancel));
    } catch (OperationCanceledException e) {
      cancel.checkCanceled(); // the caller's own CancellationException, with its message
      throw new CancellationException("parse cancelled");
    }
  }
}
