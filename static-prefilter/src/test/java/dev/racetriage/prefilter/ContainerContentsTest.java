package dev.racetriage.prefilter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.prefilter.facts.Access;
import dev.racetriage.prefilter.facts.AccessKind;
import dev.racetriage.prefilter.facts.FileFacts;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22: the JDK's unsynchronised containers, read with the agent's own table (the shared ContainerContract).
 * A field holding one whose mutator runs on a thread while another thread calls it without a common lock gives a
 * candidate named as the agent names the race ({@code pkg.Cls.field{}}), declared at the field; confined, guarded,
 * published-once, thread-safe and handed-off containers give none (or, handed off, a low-confidence one).
 */
class ContainerContentsTest {

  @TempDir Path dir;

  @Test
  void containersSharedWithoutALockAreCandidatesNamedAsTheAgentNamesThem() {
    Analysis analysis = Fixtures.scan(dir, "ContainerContentsBad");
    for (String field : List.of("counts", "ranks", "tags", "text", "FORMAT", "names")) {
      Candidate c = Expect.candidate(analysis, "fixtures.ContainerContentsBad." + field + "{}");
      Expect.hasReason(c, "a JDK container that is not thread-safe");
      assertTrue(c.confidence() >= 0.7, c.field() + " " + c.confidence() + " " + c.reasons());
      // the candidate lands on the field's declaration, where the editor shows it
      Expect.noCandidate(analysis, "fixtures.ContainerContentsBad." + field);
    }
    Candidate tags = Expect.candidate(analysis, "fixtures.ContainerContentsBad.tags{}");
    assertEquals(24, tags.line(), "the declaration of tags");
    Expect.hasReason(tags, "changed by a call in lambda at ContainerContentsBad.java:39 without lock");
  }

  @Test
  void callsAreReadsAndWritesOfThePseudoFieldAsTheTableSays() {
    FileFacts facts = Fixtures.facts(dir, "ContainerContentsBad");
    assertEquals(List.of(AccessKind.WRITE), kinds(facts, "counts{}"), "merge");
    assertEquals(List.of(AccessKind.WRITE, AccessKind.READ), kinds(facts, "tags{}"), "add, size");
    assertEquals(List.of(AccessKind.WRITE, AccessKind.READ), kinds(facts, "text{}"), "append, length");
    assertEquals(List.of(AccessKind.WRITE), kinds(facts, "FORMAT{}"), "format uses the calendar");
    assertEquals(List.of(AccessKind.WRITE, AccessKind.READ), kinds(facts, "names{}"), "add, the for loop");
    assertTrue(facts.fields().stream().filter(f -> f.key().endsWith(".names")).allMatch(f ->
        f.unsynchronisedContainer()), "a Set only ever assigned a new TreeSet holds an unsynchronised container");
  }

  @Test
  void guardedConfinedPublishedOnceAndThreadSafeContainersAreNoCandidates() {
    Analysis analysis = Fixtures.scan(dir, "ContainersOk");
    List<String> containers = analysis.candidates().stream().map(Candidate::field).filter(f -> f.endsWith("{}"))
        .toList();
    assertEquals(List.of(), containers);
    FileFacts facts = Fixtures.facts(dir.resolve("facts"), "ContainersOk");
    assertTrue(facts.fields().stream().filter(f -> f.key().endsWith(".concurrent") || f.key().endsWith(".random")
        || f.key().endsWith(".synchronizedList")).noneMatch(f -> f.unsynchronisedContainer()), facts.fields()
        .toString());
    assertTrue(facts.accesses().stream().anyMatch(a -> a.fieldKey().endsWith(".guarded{}") && a.isWrite()
        && !a.locks().isEmpty()), "the guarded map's merge is collected, under its monitor");
  }

  @Test
  void aContainerOnObjectsPassedThroughHandoffsIsAtMostLowConfidence() {
    Analysis analysis = Fixtures.scan(dir, "ContainerHandoffsOk");
    // the analysis follows fields, not objects: the producer's and the consumer's calls look unordered
    Candidate c = Expect.candidate(analysis, "fixtures.ContainerHandoffsOk$Batch.lines{}");
    assertTrue(c.confidence() <= 0.5, c.field() + " " + c.confidence() + " " + c.reasons());
    Expect.hasReason(c, "Batch objects are handed between threads through java.util.concurrent");
  }

  private static List<AccessKind> kinds(FileFacts facts, String member) {
    return facts.accesses().stream().filter(a -> a.fieldKey().equals("fixtures.ContainerContentsBad." + member))
        .map(Access::kind).toList();
  }
}
