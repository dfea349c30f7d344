package dev.racetriage.prefilter.patterns;

import dev.racetriage.prefilter.facts.Access;
import dev.racetriage.prefilter.facts.PatternHit;
import dev.racetriage.prefilter.facts.RacePattern;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jdt.core.dom.CompilationUnit;

/** {@code f++}, {@code f += n}, {@code f = f + 1} with no lock held, outside initialisation: updates get lost. */
public final class LossyCounterDetector implements PatternDetector {

  @Override
  public List<PatternHit> detect(CompilationUnit unit, String file, AccessIndex accesses) {
    List<PatternHit> hits = new ArrayList<>();
    for (Access access : accesses.all()) {
      if (access.readModifyWrite() && access.locks().isEmpty() && !access.initialisation()) {
        hits.add(new PatternHit(RacePattern.LOSSY_COUNTER, access.fieldKey(), file, access.line()));
      }
    }
    return hits;
  }
}
