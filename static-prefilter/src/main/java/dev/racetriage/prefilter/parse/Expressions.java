package dev.racetriage.prefilter.parse;

import org.eclipse.jdt.core.dom.Expression;
import org.eclipse.jdt.core.dom.ParenthesizedExpression;

/** Small syntactic helpers shared by the lockset analysis and the pattern detectors. */
public final class Expressions {
  private Expressions() {}

  /** The expression without the parentheses around it. */
  public static Expression strip(Expression expression) {
    Expression e = expression;
    while (e instanceof ParenthesizedExpression parenthesized) {
      e = parenthesized.getExpression();
    }
    return e;
  }

  /** 1-based line of a node's start. */
  public static int lineOf(org.eclipse.jdt.core.dom.ASTNode node) {
    return ((org.eclipse.jdt.core.dom.CompilationUnit) node.getRoot()).getLineNumber(node.getStartPosition());
  }
}
