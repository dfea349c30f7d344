package dev.racetriage.prefilter;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.racetriage.prefilter.facts.PatternHit;
import dev.racetriage.prefilter.facts.RacePattern;
import dev.racetriage.prefilter.rank.Reason;
import java.util.Set;
import java.util.stream.Collectors;

/** Assertions on an analysis that say which field was expected and what was found instead. */
final class Expect {
  private Expect() {}

  static Candidate candidate(Analysis analysis, String fieldKey) {
    return analysis.candidate(fieldKey).orElseGet(() -> fail(fieldKey + " is not a candidate; candidates: "
        + analysis.candidates().stream().map(Candidate::field).toList()));
  }

  static void noCandidate(Analysis analysis, String fieldKey) {
    analysis.candidate(fieldKey).ifPresent(c -> fail(fieldKey + " should not be a candidate, but is: " + c.reasons()));
  }

  static Set<RacePattern> patterns(Candidate candidate) {
    return candidate.patterns().stream().map(PatternHit::pattern).collect(Collectors.toSet());
  }

  static void hasPattern(Candidate candidate, RacePattern pattern) {
    assertTrue(patterns(candidate).contains(pattern),
        candidate.field() + " should show " + pattern + "; patterns: " + patterns(candidate));
  }

  static void lacksPattern(Candidate candidate, RacePattern pattern) {
    assertFalse(patterns(candidate).contains(pattern),
        candidate.field() + " should not show " + pattern + "; patterns: " + patterns(candidate));
  }

  static void hasReason(Candidate candidate, String fragment) {
    assertTrue(candidate.reasons().stream().map(Reason::text).anyMatch(t -> t.contains(fragment)),
        candidate.field() + " should have a reason containing '" + fragment + "'; reasons: " + candidate.reasons());
  }
}
