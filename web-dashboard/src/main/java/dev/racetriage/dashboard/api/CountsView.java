package dev.racetriage.dashboard.api;

import dev.racetriage.store.races.RaceSummary;
import dev.racetriage.store.races.VerdictCounts;
import dev.racetriage.store.verdicts.Verdict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Races that are not fixed per current verdict (most severe first, every verdict present), how many of them are
 * trusted-benign, their total; apart from them the fixed races and the open regressions; and {@code testCode}: how
 * many of the races counted are test-code races (every access under {@code src/test}), per verdict.
 */
public record CountsView(
    Map<String, Long> byVerdict, long trustedBenign, long total, long fixed, long regressed, TestCode testCode) {

  /** The test-code races among those counted: their number and their verdicts. */
  public record TestCode(long total, Map<String, Long> byVerdict) {}

  /** {@code testCodeRaces}: the races that are not fixed and live in test code. */
  public static CountsView of(VerdictCounts counts, List<RaceSummary> testCodeRaces) {
    Map<String, Long> byVerdict = new LinkedHashMap<>();
    Map<String, Long> testByVerdict = new LinkedHashMap<>();
    for (Verdict verdict : Verdict.values()) {
      byVerdict.put(verdict.label(), counts.of(verdict));
      testByVerdict.put(verdict.label(), testCodeRaces.stream().filter(r -> r.verdict() == verdict).count());
    }
    return new CountsView(byVerdict, counts.trustedBenign(), counts.total(), counts.fixed(), counts.regressed(),
        new TestCode(testCodeRaces.size(), testByVerdict));
  }
}
