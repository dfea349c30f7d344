package dev.racetriage.prefilter.patterns;

import dev.racetriage.prefilter.facts.PatternHit;
import dev.racetriage.prefilter.facts.RacePattern;
import dev.racetriage.prefilter.parse.Expressions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.eclipse.jdt.core.dom.ASTVisitor;
import org.eclipse.jdt.core.dom.CompilationUnit;
import org.eclipse.jdt.core.dom.IfStatement;

/**
 * {@code if (f == null) { synchronized (l) { if (f == null) f = ...; } } return f;}: the first test reads f with no
 * lock, so a thread can see the reference before the constructor's writes. The ranker reports it only on fields that
 * are not volatile.
 */
public final class DoubleCheckedLockingDetector implements PatternDetector {

  @Override
  public List<PatternHit> detect(CompilationUnit unit, String file, AccessIndex accesses) {
    List<PatternHit> hits = new ArrayList<>();
    unit.accept(new ASTVisitor() {
      @Override
      public boolean visit(IfStatement outer) {
        Set<String> tested = Conditions.defaultTests(outer.getExpression(), outer, accesses);
        // the first check is the racy one: it must run without the lock
        tested.removeIf(field -> accesses.within(outer.getExpression()).stream()
            .anyMatch(a -> a.fieldKey().equals(field) && !a.locks().isEmpty()));
        for (String field : tested) {
          if (lockedRecheckAndWrite(outer, field)) {
            hits.add(new PatternHit(RacePattern.DOUBLE_CHECKED_LOCKING, field, file, Expressions.lineOf(outer)));
          }
        }
        return true;
      }

      private boolean lockedRecheckAndWrite(IfStatement outer, String field) {
        boolean[] found = {false};
        outer.getThenStatement().accept(new ASTVisitor() {
          @Override
          public boolean visit(IfStatement inner) {
            boolean recheckedUnderLock = accesses.within(inner.getExpression()).stream()
                .anyMatch(a -> a.fieldKey().equals(field) && !a.locks().isEmpty());
            boolean writtenUnderLock = accesses.within(inner.getThenStatement()).stream()
                .anyMatch(a -> a.fieldKey().equals(field) && a.isWrite() && !a.locks().isEmpty());
            found[0] |= recheckedUnderLock && writtenUnderLock;
            return !found[0];
          }
        });
        return found[0];
      }
    });
    return hits;
  }
}
