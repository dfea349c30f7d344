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
import org.eclipse.jdt.core.dom.Block;
import org.eclipse.jdt.core.dom.BodyDeclaration;
import org.eclipse.jdt.core.dom.CompilationUnit;
import org.eclipse.jdt.core.dom.IfStatement;
import org.eclipse.jdt.core.dom.LambdaExpression;
import org.eclipse.jdt.core.dom.SynchronizedStatement;

/**
 * Double-checked locking: a lock-free test of a field, then a {@code synchronized} block that tests it again and
 * assigns it. Both shapes are recognised: the nested one ({@code if (f == null) { synchronized (l) { if (f == null)
 * f = ..; } }}) and the early return ({@code T t = f; if (t != null) return t; synchronized (l) { if (f == null)
 * f = ..; return f; }}, JUMBLE's Figure 2). The ranker reports it only on fields that are not volatile.
 */
public final class DoubleCheckedLockingDetector implements PatternDetector {

  @Override
  public List<PatternHit> detect(CompilationUnit unit, String file, AccessIndex accesses) {
    List<PatternHit> hits = new ArrayList<>();
    unit.accept(new ASTVisitor() {
      @Override
      public boolean visit(SynchronizedStatement locked) {
        for (String field : recheckedAndAssigned(locked, accesses)) {
          IfStatement firstCheck = unlockedCheckBefore(locked, field, accesses);
          if (firstCheck != null) {
            hits.add(new PatternHit(RacePattern.DOUBLE_CHECKED_LOCKING, field, file, Expressions.lineOf(firstCheck)));
          }
        }
        return true;
      }
    });
    return hits;
  }

  /** Fields that an if inside the synchronized block tests and then assigns. */
  private static Set<String> recheckedAndAssigned(SynchronizedStatement locked, AccessIndex accesses) {
    Set<String> fields = new TreeSet<>();
    locked.getBody().accept(new ASTVisitor() {
      @Override
      public boolean visit(IfStatement inner) {
        Set<String> tested = Conditions.defaultTests(inner.getExpression(), inner, accesses);
        tested.retainAll(accesses.writes(inner.getThenStatement(), false));
        fields.addAll(tested);
        return true;
      }
    });
    return fields;
  }

  /** The lock-free test of {@code field} that guards the way into the synchronized block, if there is one. */
  private static IfStatement unlockedCheckBefore(SynchronizedStatement locked, String field, AccessIndex accesses) {
    ASTNode child = locked;
    for (ASTNode n = locked.getParent(); n != null; child = n, n = n.getParent()) {
      if (n instanceof BodyDeclaration || n instanceof LambdaExpression) {
        return null;
      }
      if (n instanceof IfStatement outer && child == outer.getThenStatement() && testsUnlocked(outer, field, accesses)) {
        return outer; // nested shape
      }
      if (n instanceof Block block) {
        for (Object statement : block.statements()) {
          if (statement == child) {
            break;
          }
          if (statement instanceof IfStatement earlier && testsUnlocked(earlier, field, accesses)) {
            return earlier; // early-return shape
          }
        }
      }
    }
    return null;
  }

  private static boolean testsUnlocked(IfStatement test, String field, AccessIndex accesses) {
    return Conditions.defaultTests(test.getExpression(), test, accesses).contains(field)
        && accesses.within(test.getExpression()).stream()
            .noneMatch(a -> a.fieldKey().equals(field) && !a.locks().isEmpty());
  }
}
