package dev.racetriage.store.races;

import dev.racetriage.store.verdicts.Verdict;
import java.util.EnumMap;
import java.util.Map;

/**
 * How many races that are not fixed have each current verdict (every verdict present, zero if none), how many of them
 * are marked trusted-benign, and their total; apart from them, how many races are fixed, and how many of the open
 * ones are regressions (fixed once, seen again).
 */
public record VerdictCounts(Map<Verdict, Long> byVerdict, long trustedBenign, long total, long fixed, long regressed) {
  public VerdictCounts {
    EnumMap<Verdict, Long> complete = new EnumMap<>(Verdict.class);
    for (Verdict verdict : Verdict.values()) {
      complete.put(verdict, byVerdict.getOrDefault(verdict, 0L));
    }
    byVerdict = Map.copyOf(complete);
  }

  public long of(Verdict verdict) {
    return byVerdict.get(verdict);
  }
}
