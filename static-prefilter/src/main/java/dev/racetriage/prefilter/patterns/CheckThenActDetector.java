package dev.racetriage.prefilter.patterns;

import dev.racetriage.prefilter.facts.PatternHit;
import dev.racetriage.prefilter.facts.RacePattern;
import dev.racetriage.prefilter.parse.Expressions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.ASTVisitor;
import org.eclipse.jdt.core.dom.CompilationUnit;
import org.eclipse.jdt.core.dom.ConditionalExpression;
import org.eclipse.jdt.core.dom.Expression;
import org.eclipse.jdt.core.dom.IfStatement;
import org.eclipse.jdt.core.dom.InfixExpression;

/**
 * {@code if (f != null) f.use();}, {@code f != null ? f.size() : 0}, {@code f != null && f.isEmpty()}: the field is
 * read once to test and again to act, with no lock, so the second read may see another value (null). The fix is a
 * local copy.
 */
public final class CheckThenActDetector implements PatternDetector {

  @Override
  public List<PatternHit> detect(CompilationUnit unit, String file, AccessIndex accesses) {
    List<PatternHit> hits = new ArrayList<>();
    unit.accept(new ASTVisitor() {
      @Override
      public boolean visit(IfStatement node) {
        check(node, node.getExpression(), node.getThenStatement());
        return true;
      }

      @Override
      public boolean visit(ConditionalExpression node) {
        check(node, node.getExpression(), node.getThenExpression());
        return true;
      }

      @Override
      public boolean visit(InfixExpression node) {
        if (node.getOperator() == InfixExpression.Operator.CONDITIONAL_AND && node.extendedOperands().isEmpty()) {
          check(node, node.getLeftOperand(), node.getRightOperand());
        }
        return true;
      }

      private void check(ASTNode where, Expression test, ASTNode act) {
        Set<String> doubleRead = new TreeSet<>(accesses.unlockedReads(test));
        doubleRead.retainAll(accesses.unlockedReads(act));
        doubleRead.removeAll(accesses.writes(act, false));
        for (String field : doubleRead) {
          hits.add(new PatternHit(RacePattern.CHECK_THEN_ACT, field, file, Expressions.lineOf(where)));
        }
      }
    });
    return hits;
  }
}
