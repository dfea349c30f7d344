package dev.racetriage.runner.verdict;

import java.util.ArrayList;
import java.util.List;

/**
 * The Wilcoxon signed-rank test, one-sided and exact: are paired differences centred above zero? Exact (the null
 * distribution of the positive rank sum by enumeration over the signs, ties given mid-ranks), so it holds for the ten
 * or so pairs a confirmation makes. Zero differences are dropped, as Wilcoxon's test does.
 */
final class WilcoxonSignedRank {
  private WilcoxonSignedRank() {}

  /** The one-sided p-value for "the differences are positive"; 1.0 when no difference is non-zero. */
  static double pValueGreater(List<Double> differences) {
    List<Double> nonZero = differences.stream().filter(d -> d != 0 && !d.isNaN()).toList();
    int n = nonZero.size();
    if (n == 0) return 1.0;
    List<Double> abs = new ArrayList<>(nonZero.stream().map(Math::abs).toList());
    List<Double> sorted = new ArrayList<>(abs);
    sorted.sort(null);
    // doubled mid-ranks keep every rank an integer: ranks i..j (1-based) tied give each (i + j)
    int[] rank2 = new int[n];
    for (int k = 0; k < n; k++) {
      double v = abs.get(k);
      int first = sorted.indexOf(v) + 1;
      int last = sorted.lastIndexOf(v) + 1;
      rank2[k] = first + last;
    }
    int observed = 0;
    int total = 0;
    for (int k = 0; k < n; k++) {
      total += rank2[k];
      if (nonZero.get(k) > 0) observed += rank2[k];
    }
    // ways[s]: sign assignments whose positive doubled-rank sum is s
    double[] ways = new double[total + 1];
    ways[0] = 1;
    for (int k = 0; k < n; k++) {
      for (int s = total; s >= rank2[k]; s--) ways[s] += ways[s - rank2[k]];
    }
    double atLeast = 0;
    for (int s = observed; s <= total; s++) atLeast += ways[s];
    return Math.min(1.0, atLeast / Math.pow(2, n));
  }
}
