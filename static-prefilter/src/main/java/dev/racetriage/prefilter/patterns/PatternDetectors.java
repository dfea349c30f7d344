package dev.racetriage.prefilter.patterns;

import dev.racetriage.prefilter.facts.PatternHit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.eclipse.jdt.core.dom.CompilationUnit;

/** Runs every detector over a unit. */
public final class PatternDetectors {

  private static final List<PatternDetector> ALL = List.of(new DoubleCheckedLockingDetector(),
      new RacyLazyInitDetector(), new CheckThenActDetector(), new BusyWaitDetector(), new LossyCounterDetector());

  private PatternDetectors() {}

  public static List<PatternHit> detectAll(CompilationUnit unit, String file, AccessIndex accesses) {
    LinkedHashSet<PatternHit> hits = new LinkedHashSet<>();
    for (PatternDetector detector : ALL) {
      hits.addAll(detector.detect(unit, file, accesses));
    }
    return new ArrayList<>(hits);
  }
}
