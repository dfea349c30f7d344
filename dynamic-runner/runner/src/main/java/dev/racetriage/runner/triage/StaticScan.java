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
    java.io.PrintStream stderr = System.err;
    QuietLines jdtNoise = new QuietLines(stderr, line -> line.contains("is wrongly tagged as containing missing types"));
    System.setErr(new java.io.PrintStream(jdtNoise, true));
    try {
      Analysis analysis = Prefilter.open(project.root(), Classpath.given(List.copyOf(classpath))).scan();
      analysis.problems().forEach(p -> warnings.add("Static prefilter: " + p));
      return analysis.candidates();
    } catch (RuntimeException e) {
      warnings.add("The static prefilter could not analyse " + project.root() + " (" + e.getMessage()
          + "); triage goes on without candidates.");
      return List.of();
    } finally {
      System.setErr(stderr);
      jdtNoise.flush();
      if (jdtNoise.dropped() > 0) {
        warnings.add("Static prefilter: the Eclipse compiler could not resolve the types of " + jdtNoise.dropped()
            + " method call(s) (a type missing from the class path, or two versions of one); it printed \"… is "
            + "wrongly tagged as containing missing types\" for each. Candidates in code using them may be missed.");
      }
    }
  }

  /**
   * Passes lines through to {@code out} except those {@code drop} accepts, which it counts: JDT prints one line on
   * stderr for every call it cannot bind ({@code ProblemReporter.missingTypeInMethod}), dozens on a real project.
   */
  static final class QuietLines extends java.io.OutputStream {
    private final java.io.PrintStream out;
    private final java.util.function.Predicate<String> drop;
    private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
    private int dropped;

    QuietLines(java.io.PrintStream out, java.util.function.Predicate<String> drop) {
      this.out = out;
      this.drop = drop;
    }

    @Override
    public synchronized void write(int b) {
      line.write(b);
      if (b == '\n') {
        emit();
      }
    }

    @Override
    public synchronized void flush() {
      if (line.size() > 0) {
        emit();
      }
      out.flush();
    }

    private void emit() {
      String text = line.toString(java.nio.charset.Charset.defaultCharset());
      line.reset();
      if (drop.test(text)) {
        dropped++;
      } else {
        out.print(text);
      }
    }

    synchronized int dropped() {
      return dropped;
    }
  }

  static StaticCandidate toStore(Candidate c) {
    return new StaticCandidate(FieldKey.parse(c.field()), c.file(), c.line(), c.confidence(),
        c.patterns().stream().map(p -> p.pattern().id()).distinct().toList(),
        c.reasons().stream().map(Object::toString).toList());
  }
}
