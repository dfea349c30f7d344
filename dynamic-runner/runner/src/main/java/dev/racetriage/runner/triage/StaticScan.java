package dev.racetriage.runner.triage;

import dev.racetriage.prefilter.Analysis;
import dev.racetriage.prefilter.Candidate;
import dev.racetriage.prefilter.Prefilter;
import dev.racetriage.prefilter.parse.Classpath;
import dev.racetriage.runner.project.MavenProject;
import dev.racetriage.runner.project.TestModule;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.candidates.StaticCandidate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Step 1 of the pipeline: the static prefilter over the project's sources, with the class path the build just
 * produced. Its candidates go to the report and the store, and their confidence orders the trials (likely races
 * first, so a budget spends itself where it matters).
 */
final class StaticScan {
  private StaticScan() {}

  /** The ranked candidates, or none (and a warning) when the prefilter cannot run. */
  static List<Candidate> run(MavenProject project, List<String> warnings) {
    Set<Path> classpath = new LinkedHashSet<>();
    for (TestModule module : project.modules()) {
      // JDT refuses an environment with a missing entry (a module without main sources has no target/classes)
      module.testClasspath().stream().filter(Files::exists).forEach(classpath::add);
    }
    try {
      Analysis analysis = Prefilter.open(project.root(), Classpath.given(List.copyOf(classpath))).scan();
      analysis.problems().forEach(p -> warnings.add("Static prefilter: " + p));
      return analysis.candidates();
    } catch (RuntimeException e) {
      warnings.add("The static prefilter could not analyse " + project.root() + " (" + e.getMessage()
          + "); triage goes on without candidates.");
      return List.of();
    }
  }

  static StaticCandidate toStore(Candidate c) {
    return new StaticCandidate(FieldKey.parse(c.field()), c.file(), c.line(), c.confidence(),
        c.patterns().stream().map(p -> p.pattern().id()).distinct().toList(),
        c.reasons().stream().map(Object::toString).toList());
  }
}
