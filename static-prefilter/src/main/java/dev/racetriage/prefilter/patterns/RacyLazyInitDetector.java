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
 * {@code if (f == null) f = build();} (or {@code int h = hash; if (h == 0) hash = h = compute();}) with no lock: the
 * racy single-check idiom. Benign for String.hashCode-like caches of primitives, destructive for objects published
 * half-built; the ranker weighs which.
 */
public final class RacyLazyInitDetector implements PatternDetector {

  @Override
  public List<PatternHit> detect(CompilationUnit unit, String file, AccessIndex accesses) {
    List<PatternHit> hits = new ArrayList<>();
    unit.accept(new ASTVisitor() {
      @Override
      public boolean visit(IfStatement node) {
        Set<String> tested = Conditions.defaultTests(node.getExpression(), node, accesses);
        Set<String> written = accesses.writes(node.getThenStatement(), true);
        for (String field : tested) {
          boolean testedUnlocked = accesses.within(node).stream()
              .noneMatch(a -> a.fieldKey().equals(field) && !a.locks().isEmpty());
          if (testedUnlocked && written.contains(field)) {
            hits.add(new PatternHit(RacePattern.RACY_LAZY_INIT, field, file, Expressions.lineOf(node)));
          }
        }
        return true;
      }
    });
    return hits;
  }
}
