package dev.racetriage.runner.verdict;

import java.util.ArrayList;
import java.util.List;

/**
 * The Mann-Whitney U rank test, one-sided: is the first sample stochastically larger than the second? Uses the
 * normal approximation with tie correction and continuity correction, which is adequate from about eight
 * observations per sample; smaller samples never count as significant.
 */
final class MannWhitney {
  static final int MIN_SAMPLE = 8;

  private MannWhitney() {}

  /** The one-sided p-value for "slower is larger than faster"; 1.0 when either sample is too small. */
  static double pValueGreater(List<Long> slower, List<Long> faster) {
    int n1 = slower.size();
    int n2 = faster.size();
    if (n1 < MIN_SAMPLE || n2 < MIN_SAMPLE) {
      return 1.0;
    }
    record Obs(long value, boolean first) {}
    List<Obs> all = new ArrayList<>(n1 + n2);
    slower.forEach(v -> all.add(new Obs(v, true)));
    faster.forEach(v -> all.add(new Obs(v, false)));
    all.sort((a, b) -> Long.compare(a.value(), b.value()));
    double rankSumFirst = 0;
    double tieTerm = 0;
    int i = 0;
    while (i < all.size()) {
      int j = i;
      while (j + 1 < all.size() && all.get(j + 1).value() == all.get(i).value()) j++;
      double averageRank = (i + j) / 2.0 + 1; // ranks are 1-based
      int tied = j - i + 1;
      tieTerm += (double) tied * tied * tied - tied;
      for (int k = i; k <= j; k++) {
        if (all.get(k).first()) rankSumFirst += averageRank;
      }
      i = j + 1;
    }
    double u = rankSumFirst - n1 * (n1 + 1) / 2.0;
    double mean = n1 * (double) n2 / 2.0;
    int n = n1 + n2;
    double variance = n1 * (double) n2 / 12.0 * ((n + 1) - tieTerm / (n * (double) (n - 1)));
    if (variance <= 0) {
      return 1.0; // every observation equal
    }
    double z = (u - mean - 0.5) / Math.sqrt(variance);
    return 1 - standardNormalCdf(z);
  }

  /** Φ(z) by the Abramowitz-Stegun 7.1.26 approximation of erf (error below 1.5e-7). */
  static double standardNormalCdf(double z) {
    double x = Math.abs(z) / Math.sqrt(2);
    double t = 1 / (1 + 0.3275911 * x);
    double poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
    double erf = 1 - poly * Math.exp(-x * x);
    return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
  }
}
