package dev.racetriage.prefilter.patterns;

import dev.racetriage.prefilter.facts.PatternHit;
import dev.racetriage.prefilter.facts.RacePattern;
import dev.racetriage.prefilter.parse.Expressions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.ASTVisitor;
import org.eclipse.jdt.core.dom.CompilationUnit;
import org.eclipse.jdt.core.dom.DoStatement;
import org.eclipse.jdt.core.dom.Expression;
import org.eclipse.jdt.core.dom.SynchronizedStatement;
import org.eclipse.jdt.core.dom.WhileStatement;

/**
 * {@code while (!done) { Thread.onSpinWait(); }} on a plain field: nothing in the loop synchronises, so the JIT may
 * hoist the read and the loop never ends. Only plain flag tests count ({@code f}, {@code !f}, {@code f == CONST}), so
 * {@code while (i < size)} is not a busy-wait.
 */
public final class BusyWaitDetector implements PatternDetector {

  @Override
  public List<PatternHit> detect(CompilationUnit unit, String file, AccessIndex accesses) {
    List<PatternHit> hits = new ArrayList<>();
    unit.accept(new ASTVisitor() {
      @Override
      public boolean visit(WhileStatement node) {
        check(node, node.getExpression(), node.getBody());
        return true;
      }

      @Override
      public boolean visit(DoStatement node) {
        check(node, node.getExpression(), node.getBody());
        return true;
      }

      private void check(ASTNode loop, Expression condition, ASTNode body) {
        Optional<String> flag = Conditions.flagTest(condition, accesses);
        if (flag.isEmpty() || !accesses.unlockedReads(condition).contains(flag.get())) {
          return;
        }
        boolean bodySynchronises = accesses.within(body).stream().anyMatch(a -> !a.locks().isEmpty())
            || containsSynchronized(body);
        if (!bodySynchronises && !accesses.writes(body, false).contains(flag.get())) {
          hits.add(new PatternHit(RacePattern.BUSY_WAIT, flag.get(), file, Expressions.lineOf(loop)));
        }
      }
    });
    return hits;
  }

  private static boolean containsSynchronized(ASTNode body) {
    boolean[] found = {false};
    body.accept(new ASTVisitor() {
      @Override
      public boolean visit(SynchronizedStatement node) {
        found[0] = true;
        return false;
      }
    });
    return found[0];
  }
}
