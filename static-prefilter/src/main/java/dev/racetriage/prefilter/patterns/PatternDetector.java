package dev.racetriage.prefilter.patterns;

import dev.racetriage.prefilter.facts.PatternHit;
import java.util.List;
import org.eclipse.jdt.core.dom.CompilationUnit;

/** Finds one racy shape in a unit, given the unit's field accesses and the locks held at each. */
public interface PatternDetector {
  List<PatternHit> detect(CompilationUnit unit, String file, AccessIndex accesses);
}
