package dev.racetriage.dashboard.api;

import dev.racetriage.store.races.VerdictCounts;
import dev.racetriage.store.verdicts.Verdict;
import java.util.LinkedHashMap;
import java.util.Map;

/** Races per current verdict (most severe first, every verdict present), how many are trusted-benign, the total. */
public record CountsView(Map<String, Long> byVerdict, long trustedBenign, long total) {
  public static CountsView of(VerdictCounts counts) {
    Map<String, Long> byVerdict = new LinkedHashMap<>();
    for (Verdict verdict : Verdict.values()) {
      byVerdict.put(verdict.label(), counts.of(verdict));
    }
    return new CountsView(byVerdict, counts.trustedBenign(), counts.total());
  }
}
