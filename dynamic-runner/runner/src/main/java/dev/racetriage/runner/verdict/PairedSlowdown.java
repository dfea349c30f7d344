package dev.racetriage.runner.verdict;

import java.util.List;
import java.util.Locale;

/**
 * The confirmation a qos verdict needs: a heuristic whose runs looked slower than the control's (the screening rule,
 * {@link VerdictClassifier#slower}) is run again in {@link #PAIRS} strictly interleaved pairs — control and
 * heuristic back to back, the order alternating — and the slowdown stands only if the pairs show it too: the median
 * pair ratio at least the qos ratio, the median pair difference at least the qos floor, and a one-sided exact
 * Wilcoxon signed-rank test on the log ratios below the significance level. A machine that gets busier slows both runs
 * of a pair alike, so its swings cancel in the ratios; in the screening they can land on one side (a sparse control,
 * or two trial JVMs whose rounds run in lock-step: a benign cache came out "2.0x slower, p = 0.0005" on a loaded
 * machine).
 */
public final class PairedSlowdown {
  /** Pairs a confirmation makes (at a quarter of 1 %, 10 pairs tolerate one reversed pair of the smallest size). */
  public static final int PAIRS = 10;

  private final double ratio;
  private final long minMillis;
  private final double alpha;

  PairedSlowdown(double ratio, long minMillis, double alpha) {
    this.ratio = ratio;
    this.minMillis = minMillis;
    this.alpha = alpha;
  }

  public static PairedSlowdown standard() {
    return VerdictClassifier.standard().paired();
  }

  /** Whether {@code pairs} (at least {@link #PAIRS}) confirm the slowdown, at {@code alpha / comparisons}. */
  public boolean confirms(List<PairedRun> pairs, int comparisons) {
    return pairs.size() >= PAIRS && medianRatio(pairs) >= ratio && medianDifference(pairs) >= minMillis
        && pValue(pairs) < alpha / Math.max(1, comparisons);
  }

  /**
   * Whether the confirmation is over without confirming: all {@link #PAIRS} made, or already more than half of them
   * below the qos ratio, or more than half below the qos floor (then the median of the {@link #PAIRS} cannot reach it
   * whatever the rest show: a benign race's confirmation usually ends after six pairs).
   */
  public boolean refutes(List<PairedRun> pairs, int comparisons) {
    if (pairs.size() >= PAIRS) return !confirms(pairs, comparisons);
    return pairs.stream().filter(p -> p.ratio() < ratio).count() > PAIRS / 2
        || pairs.stream().filter(p -> p.differenceMillis() < minMillis).count() > PAIRS / 2;
  }

  /** Whether the confirmation has reached a decision either way. */
  public boolean decided(List<PairedRun> pairs, int comparisons) {
    return pairs.size() >= PAIRS || refutes(pairs, comparisons);
  }

  /** The pairs as the evidence states them: "10 back-to-back pairs: median 1.02x, +3 ms, Wilcoxon p = 0.41". */
  public String describe(List<PairedRun> pairs) {
    return String.format(Locale.ROOT, "%d back-to-back pair(s) with sc: median %.2fx, %+.0f ms, Wilcoxon p = %.2g",
        pairs.size(), medianRatio(pairs), medianDifference(pairs), pValue(pairs));
  }

  static double medianRatio(List<PairedRun> pairs) {
    return median(pairs.stream().map(PairedRun::ratio).toList());
  }

  static double medianDifference(List<PairedRun> pairs) {
    return median(pairs.stream().map(p -> (double) p.differenceMillis()).toList());
  }

  static double pValue(List<PairedRun> pairs) {
    return WilcoxonSignedRank.pValueGreater(pairs.stream()
        .map(p -> Math.log(Math.max(1, p.adversarialMillis()) / (double) Math.max(1, p.controlMillis()))).toList());
  }

  private static double median(List<Double> values) {
    if (values.isEmpty()) return 0;
    List<Double> sorted = new java.util.ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
  }
}
