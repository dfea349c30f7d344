package dev.racetriage.dashboard.api;

import dev.racetriage.store.races.VerdictCounts;
import dev.racetriage.store.verdicts.Verdict;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Races that are not fixed per current verdict (most severe first, every verdict present), how many of them are
 * trusted-benign, their total; and apart from them the fixed races and the open regressions.
 */
public record CountsView(Map<String, Long> byVerdict, long trustedBenign, long total, long fixed, long regressed) {
  public static CountsView of(VerdictCounts counts) {
    Map<String, Long> byVerdict = new LinkedHashMap<>();
    for (Verdict verdict : Verdict.values()) {
      byVerdict.put(verdict.label(), counts.of(verdict));
    }
    return new CountsView(byVerdict, counts.trustedBenign(), counts.total(), counts.fixed(), counts.regressed());
  }
}
