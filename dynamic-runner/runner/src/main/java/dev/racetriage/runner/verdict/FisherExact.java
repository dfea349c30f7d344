package dev.racetriage.runner.verdict;

/**
 * Fisher's exact test on a 2×2 table of failures and passes, one-sided: does the first group fail more often than
 * the second? Exact (hypergeometric tail), so it holds for the handful of runs a trial makes.
 */
final class FisherExact {
  private FisherExact() {}

  /**
   * The probability, with the failure total and both group sizes fixed, that the first group has at least
   * {@code failures1} of the failures: the one-sided p-value for "group 1 fails more often than group 2".
   */
  static double pValueGreater(int failures1, int runs1, int failures2, int runs2) {
    if (failures1 < 0 || failures2 < 0 || failures1 > runs1 || failures2 > runs2) {
      throw new IllegalArgumentException("failures must lie between 0 and the runs: " + failures1 + "/" + runs1
          + ", " + failures2 + "/" + runs2);
    }
    int total = runs1 + runs2;
    int failed = failures1 + failures2;
    double p = 0;
    for (int k = failures1; k <= Math.min(runs1, failed); k++) {
      p += Math.exp(logChoose(failed, k) + logChoose(total - failed, runs1 - k) - logChoose(total, runs1));
    }
    return Math.min(1.0, p);
  }

  private static double logChoose(int n, int k) {
    if (k < 0 || k > n) return Double.NEGATIVE_INFINITY;
    return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
  }

  private static double logFactorial(int n) {
    double sum = 0;
    for (int i = 2; i <= n; i++) sum += Math.log(i);
    return sum;
  }
}
