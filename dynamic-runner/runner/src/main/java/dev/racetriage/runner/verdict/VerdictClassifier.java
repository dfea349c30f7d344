package dev.racetriage.runner.verdict;

import dev.racetriage.store.verdicts.Verdict;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Step 5 of the verdict pipeline (ARCHITECTURE.md "Verdicts"), applied to the trials of one race:
 *
 * <ol>
 *   <li><b>flaky</b> — the test failed without the agent in every run, or under {@code sc} no less often than under
 *       every adversarial heuristic, or under a heuristic in a run that served no stale value: a failure the race
 *       cannot explain;</li>
 *   <li><b>destructive</b> — some adversarial heuristic failed in runs that served stale values, and, where
 *       {@code sc} failed too (a test that also fails intermittently without stale values, often through the race
 *       under study: Peterson's lock without volatile fails natively on x86), failed significantly more often than
 *       {@code sc}: a one-sided Fisher exact test gives p &lt; {@code alpha} divided by the number of heuristics;</li>
 *   <li><b>unexercised</b> — no adversarial run was ever served a stale value, so nothing was tested;</li>
 *   <li><b>qos</b> — no failure, but an adversarial heuristic's runs were slower than {@code sc}'s by at least
 *       {@code slowdownRatio} and at least {@code minSlowdownMillis} in median, and a one-sided Mann-Whitney test
 *       gives p &lt; {@code alpha} divided by the number of heuristics compared with {@code sc} (Bonferroni: with
 *       four heuristics each tested at {@code alpha}, a benign race would come out qos four times as often);</li>
 *   <li><b>benign</b> — stale values were served, nothing failed, nothing slowed down.</li>
 * </ol>
 */
public final class VerdictClassifier {
  /**
   * Below this a slowdown is not evidence: a test run's duration moves by a few milliseconds with the scheduler's
   * time slices and the timer's granularity, so a 1 ms test that takes 2 ms is "2x slower" by chance (seen: a
   * spin-wait test of 1 ms median came out qos on a loaded machine).
   */
  public static final long MIN_SLOWDOWN_MILLIS = 10;

  private final double slowdownRatio;
  private final long minSlowdownMillis;
  private final double alpha;

  public VerdictClassifier(double slowdownRatio, long minSlowdownMillis, double alpha) {
    this.slowdownRatio = slowdownRatio;
    this.minSlowdownMillis = minSlowdownMillis;
    this.alpha = alpha;
  }

  public static VerdictClassifier standard() {
    return new VerdictClassifier(1.5, MIN_SLOWDOWN_MILLIS, 0.01);
  }

  public Classification classify(List<HeuristicTrials> trials, boolean failsWithoutAgent) {
    Optional<HeuristicTrials> control = trials.stream().filter(HeuristicTrials::isControl).findFirst();
    List<HeuristicTrials> adversarial = trials.stream().filter(t -> !t.isControl()).toList();
    Map<String, String> facts = facts(trials);

    if (failsWithoutAgent) {
      return new Classification(Verdict.FLAKY, "the test also fails without the agent", null, facts);
    }
    if (control.isPresent() && control.get().failures() > 0) {
      HeuristicTrials sc = control.get();
      Optional<HeuristicTrials> beyondControl = adversarial.stream()
          .filter(t -> failsMoreOftenThanControl(t.explainedFailures(), t.runs(), sc.failures(), sc.runs(),
              adversarial.size()))
          .max(Comparator.comparingDouble(HeuristicTrials::observationRate));
      if (beyondControl.isPresent()) {
        HeuristicTrials b = beyondControl.get();
        return new Classification(Verdict.DESTRUCTIVE, String.format(Locale.ROOT,
            "%d/%d runs failed under %s, %d/%d under sc: the stale values make the test fail more often than the"
                + " control (Fisher p = %.2g)", b.explainedFailures(), b.runs(), b.heuristic(), sc.failures(),
            sc.runs(), FisherExact.pValueGreater(b.explainedFailures(), b.runs(), sc.failures(), sc.runs())),
            b.heuristic(), facts);
      }
      return new Classification(Verdict.FLAKY,
          sc.failures() + "/" + sc.runs() + " runs failed under sc, where every read returns the latest value", SC, facts);
    }
    Optional<HeuristicTrials> unexplained = adversarial.stream().filter(t -> t.unexplainedFailures() > 0).findFirst();
    Optional<HeuristicTrials> best = adversarial.stream()
        .filter(t -> t.explainedFailures() > 0)
        .max(Comparator.comparingDouble(HeuristicTrials::observationRate));
    if (best.isPresent()) {
      HeuristicTrials b = best.get();
      String summary = b.explainedFailures() + "/" + b.runs() + " runs failed under " + b.heuristic()
          + control.map(sc -> ", 0/" + sc.runs() + " under sc").orElse("");
      return new Classification(Verdict.DESTRUCTIVE, summary, b.heuristic(), facts);
    }
    if (unexplained.isPresent()) {
      HeuristicTrials u = unexplained.get();
      return new Classification(Verdict.FLAKY, u.unexplainedFailures() + " run(s) under " + u.heuristic()
          + " failed without being served any stale value", u.heuristic(), facts);
    }
    long stale = adversarial.stream().mapToLong(HeuristicTrials::staleReads).sum();
    if (stale == 0) {
      long reads = adversarial.stream().mapToLong(HeuristicTrials::reads).sum();
      return new Classification(Verdict.UNEXERCISED, reads == 0
          ? "the tests never read the field under an adversarial heuristic"
          : "no stale value was ever visible to " + reads + " reads", null, facts);
    }
    if (control.isPresent()) {
      for (HeuristicTrials t : adversarial) {
        double ratio = medianRatio(t.durationsMillis(), control.get().durationsMillis());
        double p = MannWhitney.pValueGreater(t.durationsMillis(), control.get().durationsMillis());
        if (ratio >= slowdownRatio && p < alpha / adversarial.size()
            && median(t.durationsMillis()) - median(control.get().durationsMillis()) >= minSlowdownMillis) {
          return new Classification(Verdict.QOS, String.format(Locale.ROOT,
              "no failures; %s runs %.1fx slower than sc in median (Mann-Whitney p = %.2g)", t.heuristic(), ratio, p),
              t.heuristic(), facts);
        }
      }
    }
    return new Classification(Verdict.BENIGN,
        stale + " stale values served, no failure and no slowdown", null, facts);
  }

  private static final String SC = HeuristicTrials.SC;

  /**
   * Whether a heuristic's failures with stale values ({@code explained} of {@code runs}) are significantly more
   * frequent than the control's ({@code scFailures} of {@code scRuns}): one-sided Fisher exact test at {@code alpha}
   * divided by the number of heuristics compared with {@code sc}. Early stopping asks it whether a field whose
   * control failed is already decided.
   */
  public boolean failsMoreOftenThanControl(int explained, int runs, int scFailures, int scRuns, int comparisons) {
    return explained > 0 && scRuns > 0
        && FisherExact.pValueGreater(explained, runs, scFailures, scRuns) < alpha / Math.max(1, comparisons);
  }

  /**
   * Whether runs with these durations are slower than the {@code sc} runs by this classifier's qos rule (median ratio
   * and difference, Mann-Whitney at {@code alpha / comparisons}); early stopping asks it to end a heuristic whose
   * slowdown is already decisive.
   */
  public boolean slower(List<Long> adversarialMillis, List<Long> scMillis, int comparisons) {
    return medianRatio(adversarialMillis, scMillis) >= slowdownRatio
        && median(adversarialMillis) - median(scMillis) >= minSlowdownMillis
        && MannWhitney.pValueGreater(adversarialMillis, scMillis) < alpha / Math.max(1, comparisons);
  }

  private static double medianRatio(List<Long> adversarialMillis, List<Long> scMillis) {
    double base = median(scMillis);
    double slow = median(adversarialMillis);
    return base <= 0 ? (slow > 0 ? Double.POSITIVE_INFINITY : 1) : slow / base;
  }

  public static double median(List<Long> values) {
    if (values.isEmpty()) return 0;
    List<Long> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
  }

  private static Map<String, String> facts(List<HeuristicTrials> trials) {
    Map<String, String> facts = new LinkedHashMap<>();
    for (HeuristicTrials t : trials) {
      String h = t.heuristic();
      facts.put(h + ".runs", Integer.toString(t.runs()));
      facts.put(h + ".failures", Integer.toString(t.failures()));
      facts.put(h + ".failureRate", String.format(Locale.ROOT, "%.2f", t.observationRate()));
      facts.put(h + ".staleReads", Long.toString(t.staleReads()));
      facts.put(h + ".medianMillis", String.format(Locale.ROOT, "%.0f", median(t.durationsMillis())));
    }
    return facts;
  }
}
