package dev.racetriage.prefilter;

import dev.racetriage.prefilter.facts.FileFacts;
import dev.racetriage.prefilter.lockset.AccessCollector;
import dev.racetriage.prefilter.parse.FieldNames;
import dev.racetriage.prefilter.parse.TypeNames;
import dev.racetriage.prefilter.patterns.AccessIndex;
import dev.racetriage.prefilter.patterns.PatternDetectors;
import org.eclipse.jdt.core.compiler.IProblem;
import org.eclipse.jdt.core.dom.CompilationUnit;

/** Extracts the facts of one parsed file: declarations, accesses with their locks, calls, pattern hits. */
final class FileAnalyzer {

  private FileAnalyzer() {}

  static FileFacts analyze(String file, CompilationUnit unit) {
    TypeNames types = TypeNames.of(unit);
    FieldNames fields = new FieldNames(types);
    AccessCollector collector = new AccessCollector(file, unit, types, fields);
    collector.collect();
    AccessIndex index = new AccessIndex(collector.accesses());
    int syntaxErrors = 0;
    for (IProblem problem : unit.getProblems()) {
      if (problem.isError() && (problem.getID() & IProblem.Syntax) != 0) {
        syntaxErrors++;
      }
    }
    int unresolved = (int) collector.accesses().stream().filter(a -> !a.viaBinding()).count();
    return new FileFacts(file, collector.fieldDecls(), collector.types(), collector.methods(), collector.calls(),
        collector.accesses(), PatternDetectors.detectAll(unit, file, index), collector.lockAliases(), syntaxErrors,
        unresolved, collector.handoffs(), collector.handedOffTypes());
  }
}
