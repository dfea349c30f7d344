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
 *       every adversarial heuristic, or under heuristics in {@link #UNEXPLAINED_REPEATS} runs that served no stale
 *       value: failures the race cannot explain (a single one is noted in the evidence and not counted); or the
 *       control keeps timing out ({@link #controlKeepsTimingOut}). A timeout is never a
 *       failure: one under {@code sc} is noise, one under a heuristic a duration at its limit for the qos rule
 *       (checked before unexercised for such heuristics, since a killed run reports no stale values);</li>
 *   <li><b>destructive</b> — some adversarial heuristic failed in runs that served stale values, and, where
 *       {@code sc} failed too (a test that also fails intermittently without stale values, often through the race
 *       under study: Peterson's lock without volatile fails natively on x86), failed significantly more often than
 *       {@code sc}: a one-sided Fisher exact test gives p &lt; {@code alpha} divided by the number of heuristics, or
 *       p &lt; {@code alpha} for all of them together ({@link #beyondControl}). A heuristic's run that failed without
 *       a stale value beside one that failed with them counts as the control's ({@link #unexplainedBesideAConviction});
 *       against a clean control the evidence gives the significance reached ({@link #CONVICTION_ALPHA});</li>
 *   <li><b>unexercised</b> — no adversarial run was ever served a stale value, so nothing was tested;</li>
 *   <li><b>qos</b> — no failure, but an adversarial heuristic's runs were slower than {@code sc}'s by at least
 *       {@code slowdownRatio} and at least {@code minSlowdownMillis} in median, and a one-sided Mann-Whitney test
 *       gives p &lt; {@code alpha} divided by the number of heuristics compared with {@code sc} (Bonferroni: with
 *       four heuristics each tested at {@code alpha}, a benign race would come out qos four times as often) — the
 *       screening — <i>and</i> the slowdown is confirmed in back-to-back pairs ({@link PairedSlowdown}): a machine
 *       whose load swings can make the first rule hold for a benign race, never the second;</li>
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

  /**
   * Benign is a statement about a rate: with n runs that served stale values and none failing, the failure rate under
   * that heuristic is below 1 - (1 - confidence)^(1/n). Trials stop once it is below this rate at this confidence.
   * 15 %, not 25 %: a racy initialisation that only {@code random} exposes, in a quarter of its runs, came out benign
   * for 2 of 10 such races of the synthetic benchmark with 11 runs (0.75^11 = 4 % each); with 19, 0.75^19 = 0.4 %.
   */
  public static final double BENIGN_FAILURE_RATE = 0.15;
  public static final double BENIGN_CONFIDENCE = 0.95;

  /** The fewest failure-free exercised runs that put the failure rate below {@link #BENIGN_FAILURE_RATE}: 19. */
  public static int runsForBenignConfidence() {
    return (int) Math.ceil(Math.log(1 - BENIGN_CONFIDENCE) / Math.log(1 - BENIGN_FAILURE_RATE));
  }

  /** The one-sided upper confidence bound on a failure rate after {@code runs} runs without a failure. */
  public static double failureRateBound(int runs) {
    return runs == 0 ? 1 : 1 - Math.pow(1 - BENIGN_CONFIDENCE, 1.0 / runs);
  }

  /**
   * The significance a conviction against a clean control is planned for: the control runs until the heuristic's
   * failures against its none give a one-sided Fisher p at most this ({@link #cleanControlRunsToConvict}), or until
   * it reaches its cap; the evidence gives the p reached (fact {@code significance}).
   */
  public static final double CONVICTION_ALPHA = 0.05;

  /**
   * The fewest clean control runs, from {@code atLeast} up to {@code atMost}, against which {@code failures} of
   * {@code runs} runs with stale values are significant at {@link #CONVICTION_ALPHA}: {@code atMost} if none is.
   */
  public static int cleanControlRunsToConvict(int failures, int runs, int atLeast, int atMost) {
    int m = atLeast;
    while (m < atMost && !significant(FisherExact.pValueGreater(failures, runs, 0, m))) m++;
    return m;
  }

  /** p at most {@link #CONVICTION_ALPHA}, up to rounding: 3 of 3 against 0 of 3 is exactly 0.05. */
  private static boolean significant(double p) {
    return p <= CONVICTION_ALPHA * (1 + 1e-9);
  }

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
    return classify(trials, failsWithoutAgent, 0, 0);
  }

  /**
   * {@link #classify(List, boolean)} for a race whose tests also failed without the agent in {@code nativeFailures}
   * of {@code nativeRuns} runs (the baseline's reruns of an intermittent test): those runs count as control runs,
   * since they too were served no stale value, when a heuristic's runs failed: then the race is destructive only if
   * a heuristic fails significantly more often than the control (Fisher's exact test), else flaky — a control that
   * happened to pass its few runs says nothing about a test known to fail on its own now and then. When no
   * heuristic's run failed they change nothing: the race is tried like any other (benign, qos, unexercised).
   */
  public Classification classify(List<HeuristicTrials> trials, boolean failsWithoutAgent, int nativeFailures,
                                 int nativeRuns) {
    // no failure to attribute: the runs without the agent change nothing
    int counted = trials.stream().anyMatch(t -> !t.isControl() && t.failures() > 0) ? nativeRuns : 0;
    if (counted > 0) {
      trials = trials.stream().map(t -> !t.isControl() ? t : new HeuristicTrials(t.heuristic(), t.runs() + counted,
          t.explainedFailures(), t.unexplainedFailures() + nativeFailures, t.reads(), t.staleReads(),
          t.durationsMillis(), t.timeouts(), t.pairs(), t.sharedRuns())).toList();
    }
    Map<String, String> facts = facts(trials);
    // a heuristic's run that failed without being served a stale value is a failure of the control's kind: beside a
    // failure with stale values it counts with the control's (and not with its heuristic's), so the conviction must
    // be significant against a test seen to fail without them
    int unexplainedBeside = unexplainedBesideAConviction(trials);
    if (unexplainedBeside > 0 && trials.stream().anyMatch(HeuristicTrials::isControl)) {
      facts.put("unexplainedFailures", trials.stream().filter(t -> !t.isControl() && t.unexplainedFailures() > 0)
          .map(t -> t.unexplainedFailures() + " under " + t.heuristic()).collect(java.util.stream.Collectors.joining(
              ", ")) + " failed without being served any stale value: counted among the control's");
      trials = trials.stream().map(t -> t.isControl()
          ? new HeuristicTrials(t.heuristic(), t.runs() + unexplainedBeside, t.explainedFailures(),
              t.unexplainedFailures() + unexplainedBeside, t.reads(), t.staleReads(), t.durationsMillis(), t.timeouts(),
              t.pairs(), t.sharedRuns())
          : t.unexplainedFailures() == 0 ? t : new HeuristicTrials(t.heuristic(), t.runs() - t.unexplainedFailures(),
              t.explainedFailures(), 0, t.reads(), t.staleReads(), t.durationsMillis(), t.timeouts(), t.pairs(),
              t.sharedRuns())).toList();
    }
    String scRuns = (counted > 0 ? " under sc and without the agent" : " under sc")
        + (unexplainedBeside > 0 ? " or without a stale value served" : "");
    Optional<HeuristicTrials> control = trials.stream().filter(HeuristicTrials::isControl).findFirst();
    List<HeuristicTrials> adversarial = trials.stream().filter(t -> !t.isControl()).toList();
    if (counted > 0) {
      facts.put(SC + ".withoutAgent", nativeFailures + " of " + nativeRuns + " runs without the agent failed, counted"
          + " among the control's");
    }

    if (failsWithoutAgent) {
      return new Classification(Verdict.FLAKY, "the test also fails without the agent", null, facts);
    }
    if (control.isPresent() && controlKeepsTimingOut(control.get().timeouts(), control.get().runs())) {
      HeuristicTrials sc = control.get();
      return new Classification(Verdict.FLAKY, sc.timeouts() + " of " + (sc.timeouts() + sc.runs())
          + " runs under sc timed out, where every read returns the latest value: the test does not finish reliably"
          + " on its own", SC, facts);
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
            "%d/%d runs failed under %s, %d/%d%s: the stale values make the test fail more often than the"
                + " control (Fisher p = %.2g)", b.explainedFailures(), b.runs(), b.heuristic(), sc.failures(),
            sc.runs(), scRuns, FisherExact.pValueGreater(b.explainedFailures(), b.runs(), sc.failures(), sc.runs())),
            b.heuristic(), facts);
      }
      int pooled = adversarial.stream().mapToInt(HeuristicTrials::explainedFailures).sum();
      int pooledRuns = adversarial.stream().mapToInt(HeuristicTrials::runs).sum();
      // no heuristic alone: beyond the control now means all of them together
      if (beyondControl(adversarial.stream().map(t -> new int[] {t.explainedFailures(), t.runs()}).toList(),
          sc.failures(), sc.runs())) {
        HeuristicTrials b = adversarial.stream().max(Comparator.comparingDouble(HeuristicTrials::observationRate))
            .orElseThrow();
        return new Classification(Verdict.DESTRUCTIVE, String.format(Locale.ROOT,
            "%d/%d runs failed under the adversarial heuristics together (%s), %d/%d%s: the stale values make the"
                + " test fail more often than the control (Fisher p = %.2g)", pooled, pooledRuns,
            adversarial.stream().map(t -> t.heuristic() + " " + t.explainedFailures() + "/" + t.runs())
                .collect(java.util.stream.Collectors.joining(", ")), sc.failures(), sc.runs(), scRuns,
            FisherExact.pValueGreater(pooled, pooledRuns, sc.failures(), sc.runs())), b.heuristic(), facts);
      }
      // what the stale values did, so a race that may itself be the cause (a lost update fails under sc too) is not
      // read as only a flaky test
      String withStale = pooled == 0 ? "" : String.format(Locale.ROOT, "; %d/%d with stale values under %s, not"
          + " significantly more often (Fisher p = %.2g)", pooled, pooledRuns, adversarial.size() == 1
          ? adversarial.get(0).heuristic() : "the adversarial heuristics together", FisherExact.pValueGreater(pooled,
          pooledRuns, sc.failures(), sc.runs()));
      return new Classification(Verdict.FLAKY, sc.failures() + "/" + sc.runs() + " runs failed" + scRuns
          + ", where every read returns the latest value" + (counted > 0 ? ", and no heuristic made it fail"
          + " significantly more often" : "") + withStale, SC, facts);
    }
    Optional<HeuristicTrials> unexplained = adversarial.stream().filter(t -> t.unexplainedFailures() > 0).findFirst();
    Optional<HeuristicTrials> best = adversarial.stream()
        .filter(t -> t.explainedFailures() > 0)
        .max(Comparator.comparingDouble(HeuristicTrials::observationRate));
    if (best.isPresent()) {
      HeuristicTrials b = best.get();
      String summary = b.explainedFailures() + "/" + b.runs() + " runs failed under " + b.heuristic()
          + control.map(sc -> ", 0/" + sc.runs() + " under sc").orElse("");
      control.ifPresent(sc -> facts.put("significance", significance(b, sc)));
      return new Classification(Verdict.DESTRUCTIVE, summary, b.heuristic(), facts);
    }
    int unexplainedRuns = adversarial.stream().mapToInt(HeuristicTrials::unexplainedFailures).sum();
    if (unexplained.isPresent() && unexplainedRuns >= UNEXPLAINED_REPEATS) {
      HeuristicTrials u = unexplained.get();
      return new Classification(Verdict.FLAKY, unexplainedRuns + " run(s) under " + adversarial.stream()
          .filter(t -> t.unexplainedFailures() > 0).map(HeuristicTrials::heuristic)
          .collect(java.util.stream.Collectors.joining(", ")) + " failed without being served any stale value",
          u.heuristic(), facts);
    }
    Classification c = withoutFailures(control, adversarial, facts);
    if (unexplained.isEmpty()) {
      return c;
    }
    // one failure no stale value explains, never repeated although the scheduler ran every heuristic and the control
    // again after it (StoppingRule): the test's own intermittence, noted and not counted
    String note = "1 run under " + unexplained.get().heuristic() + " failed without being served any stale value: not"
        + " counted (a failure the race cannot explain, not repeated; a second one makes the race flaky)";
    Map<String, String> noted = new LinkedHashMap<>(c.facts());
    noted.put("unexplainedFailure", note);
    return new Classification(c.verdict(), c.summary() + "; " + note, c.decisiveHeuristic(), noted);
  }

  /**
   * How strongly a conviction against a clean control stands: the one-sided Fisher p of the heuristic's failures
   * against the control's none, and, when the control's runs did not reach {@link #CONVICTION_ALPHA} (its cap, or
   * the budget), that a test failing on its own at the heuristic's rate could have passed them by chance.
   */
  private static String significance(HeuristicTrials b, HeuristicTrials sc) {
    double p = FisherExact.pValueGreater(b.explainedFailures(), b.runs(), 0, sc.runs());
    String stated = String.format(Locale.ROOT, "Fisher p = %.2g for %d/%d under %s against 0/%d under sc",
        p, b.explainedFailures(), b.runs(), b.heuristic(), sc.runs());
    return significant(p) ? stated : stated + String.format(Locale.ROOT, ": not significant at %.0f %% — the"
        + " control's clean runs could be luck if the test also failed on its own that often; more runs under sc would"
        + " tell", 100 * CONVICTION_ALPHA);
  }

  /**
   * The runs of adversarial heuristics that failed without being served a stale value, when some run did fail with
   * stale values (else 0: the {@link #UNEXPLAINED_REPEATS} rule applies to them). Such a run is one the control could
   * have made, so the classifier and the stopping rule count it with the control's runs and failures.
   */
  static int unexplainedBesideAConviction(List<HeuristicTrials> trials) {
    return unexplainedBesideAConviction(trials.stream().filter(t -> !t.isControl())
        .map(t -> new int[] {t.explainedFailures(), t.failures()}).toList());
  }

  /**
   * {@link #unexplainedBesideAConviction(List)} from each adversarial heuristic's {failures with stale values, all
   * failures}: the rule the stopping rule applies to its tallies too.
   */
  public static int unexplainedBesideAConviction(java.util.Collection<int[]> explainedAndFailures) {
    if (explainedAndFailures.stream().noneMatch(h -> h[0] > 0)) return 0;
    return explainedAndFailures.stream().mapToInt(h -> h[1] - h[0]).sum();
  }

  /**
   * How many failures without a stale value served make a race flaky: one alone is the test's own intermittence
   * (a timing-sensitive test on a loaded machine: commons-pool's resilient-factory test failed once in 47 runs
   * (under {@code random}) and turned a write-write race no read sees from unexercised into flaky), two are a test that
   * fails on its own.
   */
  static final int UNEXPLAINED_REPEATS = 2;

  /** The verdict of trials in which no run failed with stale values served and the control did not fail. */
  private Classification withoutFailures(Optional<HeuristicTrials> control, List<HeuristicTrials> adversarial,
                                         Map<String, String> facts) {
    // Runs killed at their limit under a heuristic, not under sc: stale values slowed the test past it (the JVM's
    // report, and with it the count of stale values, died with it), so qos comes before unexercised for them.
    Optional<Classification> hangs = control.flatMap(sc -> adversarial.stream().filter(t -> t.timeouts() > 0)
        .map(t -> qos(t, sc, adversarial.size(), facts)).flatMap(Optional::stream).findFirst());
    if (hangs.isPresent()) return hangs.get();
    long stale = adversarial.stream().mapToLong(HeuristicTrials::staleReads).sum();
    if (stale == 0) {
      long reads = adversarial.stream().mapToLong(HeuristicTrials::reads).sum();
      return new Classification(Verdict.UNEXERCISED, reads == 0
          ? "the tests never read the field under an adversarial heuristic"
          : "no stale value was ever visible to " + reads + " reads", null, facts);
    }
    if (control.isPresent()) {
      for (HeuristicTrials t : adversarial) {
        Optional<Classification> slow = qos(t, control.get(), adversarial.size(), facts);
        if (slow.isPresent()) return slow.get();
      }
    }
    Map<String, String> benign = new LinkedHashMap<>(facts);
    String notSlow = control.map(sc -> adversarial.stream().filter(t -> unconfirmedSlowdown(t, sc, adversarial.size()))
        .map(t -> String.format(Locale.ROOT, "%s looked %.1fx slower than sc in median, but %s", t.heuristic(),
            medianRatio(t.durationsMillis(), sc.durationsMillis()), t.pairs().isEmpty()
                ? "no back-to-back pairs confirmed it" : "not in " + paired().describe(t.pairs())))
        .collect(java.util.stream.Collectors.joining("; "))).orElse("");
    if (!notSlow.isEmpty()) {
      benign.put("slowdownNotConfirmed", notSlow + " (the machine's load, not the race)");
    }
    List<HeuristicTrials> served = adversarial.stream().filter(t -> t.staleReads() > 0 || t.sharedRuns() > 0).toList();
    int fewest = served.stream().mapToInt(t -> t.runs() + t.sharedRuns()).min().orElse(0);
    String shared = served.stream().filter(t -> t.sharedRuns() > 0)
        .map(t -> t.heuristic() + " " + t.runs() + " + " + t.sharedRuns())
        .collect(java.util.stream.Collectors.joining(", "));
    benign.put("failureRateBound", String.format(Locale.ROOT,
        "below %.0f %% with %.0f %% confidence under every heuristic that served stale values (at least %d run(s) each,"
            + " none failed%s)", 100 * failureRateBound(fewest), 100 * BENIGN_CONFIDENCE, fewest, shared.isEmpty() ? ""
            : "; counting runs of another heuristic that chose every read as it would: " + shared));
    return new Classification(Verdict.BENIGN, stale + " stale values served, no failure and no "
        + (notSlow.isEmpty() ? "slowdown" : "confirmed slowdown (" + notSlow + ")"), null, benign);
  }

  /**
   * qos when {@code t}'s runs are slower than the control's by this classifier's rule (timeouts at their limit) and
   * its confirmation pairs show the slowdown too ({@link PairedSlowdown}).
   */
  private Optional<Classification> qos(HeuristicTrials t, HeuristicTrials sc, int comparisons, Map<String, String> facts) {
    if (!slower(t.durationsMillis(), sc.durationsMillis(), comparisons)) return Optional.empty();
    if (!paired().confirms(t.pairs(), comparisons)) return Optional.empty();
    double ratio = medianRatio(t.durationsMillis(), sc.durationsMillis());
    double p = MannWhitney.pValueGreater(t.durationsMillis(), sc.durationsMillis());
    String hung = t.timeouts() == 0 ? "" : String.format(Locale.ROOT, " (%d of %d runs timed out)", t.timeouts(), t.runs());
    return Optional.of(new Classification(Verdict.QOS, String.format(Locale.ROOT,
        "no failures; %s runs %.1fx slower than sc in median%s (Mann-Whitney p = %.2g); confirmed in %s", t.heuristic(),
        ratio, hung, p, paired().describe(t.pairs())), t.heuristic(), facts));
  }

  /** The confirmation this classifier's qos rule asks for: the same ratio, floor and significance level, on pairs. */
  public PairedSlowdown paired() {
    return new PairedSlowdown(slowdownRatio, minSlowdownMillis, alpha);
  }

  /**
   * Whether {@code t} passed the screening (its runs look slower than the control's) without the pairs confirming it:
   * the evidence says so, since it is what a loaded machine does to a benign race.
   */
  private boolean unconfirmedSlowdown(HeuristicTrials t, HeuristicTrials sc, int comparisons) {
    return slower(t.durationsMillis(), sc.durationsMillis(), comparisons) && !paired().confirms(t.pairs(), comparisons);
  }

  /**
   * Whether the control's timeouts are more than the environment's noise: at least 3 of them, and no fewer than its
   * runs that finished. Below that they are run again and do not count; at it the race is flaky (a test that does
   * not finish on its own cannot show what stale values do).
   */
  public static boolean controlKeepsTimingOut(int timeouts, int finishedRuns) {
    return timeouts >= 3 && timeouts >= finishedRuns;
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
   * Whether the adversarial heuristics' failures with stale values ({explained, runs} each) are significantly more
   * frequent than a control's that failed: one of them at {@code alpha} divided by their number, or all of them
   * together at {@code alpha} — a lost update under a loaded agent fails the control a third of the time, and every
   * heuristic 8 of 8 or 5 of 5 (p = 0.007 each, short of 0.0025; together 23 of 23 against 3 of 9, p = 0.0001).
   * Both tests together keep a race whose stale values change nothing below 2 {@code alpha}.
   */
  public boolean beyondControl(List<int[]> explainedAndRuns, int scFailures, int scRuns) {
    int comparisons = explainedAndRuns.size();
    int pooled = 0;
    int pooledRuns = 0;
    for (int[] h : explainedAndRuns) {
      if (failsMoreOftenThanControl(h[0], h[1], scFailures, scRuns, comparisons)) return true;
      pooled += h[0];
      pooledRuns += h[1];
    }
    return comparisons > 1 && failsMoreOftenThanControl(pooled, pooledRuns, scFailures, scRuns, 1);
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
      if (t.timeouts() > 0) facts.put(h + ".timeouts", Integer.toString(t.timeouts()));
      if (!t.pairs().isEmpty()) facts.put(h + ".pairs", PairedSlowdown.standard().describe(t.pairs()));
      if (t.sharedRuns() > 0) facts.put(h + ".sharedRuns", Integer.toString(t.sharedRuns()));
    }
    return facts;
  }
}
