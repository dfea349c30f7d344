package dev.racetriage.runner.trial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.racetriage.runner.verdict.Classification;
import dev.racetriage.runner.verdict.HeuristicTrials;
import dev.racetriage.runner.verdict.VerdictClassifier;
import dev.racetriage.store.verdicts.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Container races go through the usual verdict rules with sc and perturb, and are described in a container's words. */
class ContainerRacesTest {
  private static final String MAP = "com.example.Cache.map{}";

  @Test
  void aContainerIsTriedUnderScAndPerturbAFieldUnderWhatWasAsked() {
    List<String> all = List.of("sc", "oldest", "random");
    assertEquals(List.of("sc", "perturb"), ContainerRaces.heuristics(MAP, all));
    assertEquals(List.of("perturb"), ContainerRaces.heuristics(MAP, List.of("oldest")));
    assertSame(all, ContainerRaces.heuristics("com.example.Cache.hash", all));
    assertSame(all, ContainerRaces.heuristics("com.example.Buf.slots[]", all));
  }

  private static Classification classify(HeuristicTrials sc, HeuristicTrials perturb) {
    return ContainerRaces.described(MAP, VerdictClassifier.standard().classify(List.of(sc, perturb), false));
  }

  @Test
  void perturbedRunsThatFailMakeItDestructive() {
    Classification c = classify(new HeuristicTrials("sc", 6, 0, 0, 600, 0, List.of(10L, 10L)),
        new HeuristicTrials("perturb", 6, 5, 0, 600, 40, List.of(10L, 10L)));
    assertEquals(Verdict.DESTRUCTIVE, c.verdict());
    assertEquals("perturb", c.decisiveHeuristic());
    assertTrue(c.summary().startsWith("5/6 runs failed under perturb, 0/6 under sc"), c.summary());
  }

  @Test
  void overlappingCallsWithoutFailureAreBenignAndNoOverlapIsUnexercised() {
    Classification benign = classify(new HeuristicTrials("sc", 19, 0, 0, 1900, 3, List.of(10L, 10L)),
        new HeuristicTrials("perturb", 19, 0, 0, 1900, 57, List.of(10L, 10L)));
    assertEquals(Verdict.BENIGN, benign.verdict());
    assertTrue(benign.summary().startsWith("57 overlapping calls on the container under perturbation, no failure"),
        benign.summary());
    assertTrue(benign.facts().containsKey("failureRateBound"));
    Classification unexercised = classify(new HeuristicTrials("sc", 5, 0, 0, 50, 0, List.of(10L)),
        new HeuristicTrials("perturb", 5, 0, 0, 50, 0, List.of(10L)));
    assertEquals(Verdict.UNEXERCISED, unexercised.verdict());
    assertEquals("the perturbed runs never made two calls on the container overlap (one of them a mutator)",
        unexercised.summary());
  }

  @Test
  void perturbedRunsSlowedByTheirOwnWaitsAreNotQos() {
    List<HeuristicTrials> trials = ContainerRaces.evidence(MAP, List.of(
        new HeuristicTrials("sc", 19, 0, 0, 1900, 2, List.of(2L, 2L, 2L, 2L, 2L, 2L, 2L, 2L)),
        new HeuristicTrials("perturb", 19, 0, 0, 1900, 80, List.of(20L, 20L, 20L, 20L, 20L, 20L, 20L, 20L))));
    Classification c = ContainerRaces.described(MAP, VerdictClassifier.standard().classify(trials, false));
    assertEquals(Verdict.BENIGN, c.verdict(), c.summary());
    assertTrue(ContainerRaces.durationsAreEvidence("sc") && !ContainerRaces.durationsAreEvidence("perturb"));
  }

  @Test
  void aControlThatFailsOnlyWithOverlappingCallsIsTheRaceNotFlakiness() {
    HeuristicTrials sc = new HeuristicTrials("sc", 20, 2, 0, 800, 40, List.of(2L));
    HeuristicTrials perturb = new HeuristicTrials("perturb", 20, 4, 0, 800, 595, List.of());
    Classification c = ContainerRaces.described(MAP,
        VerdictClassifier.standard().classify(List.of(sc, perturb), false), List.of(sc, perturb));
    assertEquals(Verdict.DESTRUCTIVE, c.verdict(), c.summary());
    assertEquals("2/20 runs failed under sc, 4/20 under perturb, each with calls on the container that overlapped or"
        + " interleaved on their own: the race fails the test without perturbation too", c.summary());
    HeuristicTrials unexplained = new HeuristicTrials("sc", 20, 1, 1, 800, 40, List.of(2L));
    Classification flaky = ContainerRaces.described(MAP,
        VerdictClassifier.standard().classify(List.of(unexplained, perturb), false), List.of(unexplained, perturb));
    assertEquals(Verdict.FLAKY, flaky.verdict(), "a control failure without an overlap: the race cannot explain it");
    assertEquals("2/20 runs failed under sc (no perturbation); 4/20 under perturb, not significantly more often"
        + " (Fisher p = 0.33)", flaky.summary());
  }

  @Test
  void aFieldKeepsItsClassification() {
    Classification c = VerdictClassifier.standard().classify(List.of(
        new HeuristicTrials("sc", 5, 0, 0, 50, 0, List.of(10L)),
        new HeuristicTrials("oldest", 5, 0, 0, 50, 0, List.of(10L))), false);
    assertSame(c, ContainerRaces.described("com.example.Cache.hash", c));
  }
}
