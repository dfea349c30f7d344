package dev.racetriage.prefilter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.prefilter.parse.Classpath;
import dev.racetriage.prefilter.parse.ClasspathStatus;
import dev.racetriage.prefilter.parse.MavenClasspathResolver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Broken files, missing libraries and a missing classpath lower the confidence and never crash. */
class DegradationTest {

  @TempDir Path dir;

  @Test
  void aFileWithSyntaxErrorsIsAnalysedAsFarAsJdtRecovers() {
    Candidate count = Expect.candidate(Fixtures.scan(dir, "SyntaxErrorBad"), "fixtures.SyntaxErrorBad.count");
    Expect.hasReason(count, "SyntaxErrorBad.java has");
    Expect.hasReason(count, "syntax error(s): analysed as far as JDT recovered");
  }

  @Test
  void missingLibrariesLeaveTheProjectsOwnFieldsAndAnnotationsResolved() {
    Analysis analysis = Fixtures.scan(dir, "MissingLibraryBad");
    Expect.candidate(analysis, "fixtures.MissingLibraryBad.names");
    Expect.candidate(analysis, "fixtures.MissingLibraryBad.sent");
    Expect.noCandidate(analysis, "fixtures.MissingLibraryBad.guarded");
  }

  @Test
  void withoutAClasspathTheSameCandidatesComeWithLowerConfidence() {
    Path project = Fixtures.project(dir, "LossyCounterBad", "InconsistentSyncBad", "MissingLibraryBad");
    Analysis withClasspath = Prefilter.open(project, Classpath.given(List.of())).scan();
    Analysis without = Prefilter.open(project, Classpath.none("test: no classpath")).scan();
    assertEquals(withClasspath.candidates().stream().map(Candidate::field).sorted().toList(),
        without.candidates().stream().map(Candidate::field).sorted().toList());
    for (Candidate degraded : without.candidates()) {
      Candidate full = withClasspath.candidate(degraded.field()).orElseThrow();
      assertTrue(degraded.confidence() < full.confidence(), degraded.field());
      Expect.hasReason(degraded, "no classpath: bindings unresolved (test: no classpath)");
    }
  }

  @Test
  void aProjectWithoutPomHasNoClasspathAndSaysWhy() {
    Classpath classpath = new MavenClasspathResolver().resolve(Fixtures.project(dir, "LossyCounterBad"));
    assertEquals(ClasspathStatus.NONE, classpath.status());
    assertTrue(classpath.detail().contains("no pom.xml"), classpath.detail());
  }

  @Test
  void aMavenThatCannotRunGivesNoClasspathInsteadOfFailing() throws Exception {
    Path project = Fixtures.project(dir, "LossyCounterBad");
    java.nio.file.Files.writeString(project.resolve("pom.xml"), "<project/>");
    Classpath classpath = new MavenClasspathResolver("/nonexistent/mvn", Duration.ofSeconds(5)).resolve(project);
    assertEquals(ClasspathStatus.NONE, classpath.status());
    assertTrue(classpath.detail().contains("RACETRIAGE_MVN"), classpath.detail());
    Candidate count = Expect.candidate(Prefilter.open(project, classpath).scan(), "fixtures.LossyCounterBad.count");
    Expect.hasReason(count, "no classpath");
  }

  @Test
  void aDirectoryWithoutJavaSourcesIsRefusedWithTheReason() {
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> Prefilter.open(dir, Classpath.none("test")));
    assertTrue(e.getMessage().contains("no Java sources"), e.getMessage());
  }

  @Test
  void codeThatCrashesJdtsBatchResolverIsStillAnalysed() {
    // JDT 3.40 throws a NullPointerException while resolving this file in batch mode (a lambda comparing values of
    // a missing library type): the batch is retried file by file, then without bindings
    Path project = Fixtures.project(dir, "JdtResolverCrash", "LossyCounterBad");
    List<Path> files = List.of(Fixtures.fileOf(project, "JdtResolverCrash"), Fixtures.fileOf(project, "LossyCounterBad"));
    List<Path> delivered = new java.util.ArrayList<>();
    new dev.racetriage.prefilter.parse.JavaParser(List.of(project.resolve("src/main/java")), Classpath.none("test"))
        .parseAll(files, (file, unit) -> delivered.add(file));
    assertEquals(java.util.Set.copyOf(files), java.util.Set.copyOf(delivered));
    Analysis analysis = Prefilter.open(project, Classpath.none("test")).scan();
    Expect.candidate(analysis, "fixtures.JdtResolverCrash.lookups");
    Expect.candidate(analysis, "fixtures.LossyCounterBad.count");
    assertTrue(analysis.problems().isEmpty(), analysis.problems().toString());
  }
}
