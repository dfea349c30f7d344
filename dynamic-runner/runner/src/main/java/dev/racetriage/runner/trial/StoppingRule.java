package dev.racetriage.runner.trial;

import dev.racetriage.runner.verdict.HeuristicTrials;
import dev.racetriage.runner.verdict.PairedRun;
import dev.racetriage.runner.verdict.PairedSlowdown;
import dev.racetriage.runner.verdict.VerdictClassifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Sequential early stopping for one field: per heuristic, run until its evidence is decisive, at most
 * {@code maxRuns} times; and the whole field stops once its verdict cannot change any more.
 *
 * <ul>
 *   <li>an adversarial heuristic stops after {@code failuresToConvict} failures that were served stale values (the
 *       race is destructive under it; more runs only refine the rate) — unless {@code sc} failed too: then it runs
 *       on until it fails significantly more often than {@code sc} (the classifier's Fisher test) or reaches
 *       {@code maxRuns};</li>
 *   <li>it also stops after {@code unexercisedAfter} runs in which no stale value was ever served: the test does not
 *       exercise the race under this heuristic, and more seeds of the same schedule rarely change that;</li>
 *   <li>it stops when its slowdown against {@code sc} already passes the classifier's qos screening (median ratio
 *       and difference, Mann-Whitney corrected for the heuristics compared, which needs 8 timed runs on each side);
 *       the unit then confirms it in back-to-back pairs ({@link #toConfirm}), and a slowdown they refute is the
 *       machine's load: the heuristic runs on under the benign rule;</li>
 *   <li>it stops as benign after {@code benignAfter} runs that served stale values without a failure or a timeout
 *       (sequential stopping: the failure rate is then below 15 % with 95 % confidence), unless its median is
 *       already 1.5x the control's and 10 ms above it (a slowdown building up runs on, so qos can become
 *       significant);</li>
 *   <li>once one heuristic failed with stale values and {@code sc} did not fail, only that heuristic runs on (with
 *       {@code sc} up to {@code controlRunsToConvict} runs, and as many as that heuristic ran:
 *       {@link #controlRunsNeeded}): the others could only refine the rate;</li>
 *   <li>{@code sc}, while stable, runs every third round ({@link #controlResting}) and comes back to every round
 *       with any adversarial failure, timeout or suspected slowdown;</li>
 *   <li>the {@code sc} control stops after {@code failuresToConvict} failures: the test fails that often without
 *       stale values. One failure does not stop it: a test that fails intermittently on its own (often through the
 *       very race under study) is destructive if the stale values make it fail significantly more often, which
 *       needs the control's rate;</li>
 *   <li>the field stops when some heuristic convicted the race and {@code sc} has passed at least
 *       {@code controlRunsToConvict} runs without a failure (destructive: nothing later can change the verdict), when
 *       {@code sc} failed and some heuristic already fails significantly more often (destructive), or when {@code sc}
 *       failed {@code failuresToConvict} times and none does (flaky);</li>
 *   <li>timeouts are not failures: an {@code sc} run that timed out is run again (the machine, not the race), and
 *       the control is given up on — the field is flaky — only when it keeps timing out
 *       ({@link VerdictClassifier#controlKeepsTimingOut}); an adversarial run that timed out counts as a run whose
 *       duration is its limit, for the qos rule, and not as a run without stale values.</li>
 * </ul>
 *
 * {@link #exhaustive} turns all of it off but {@code maxRuns}: every heuristic runs {@code maxRuns} times (to measure
 * what early stopping saves, and for observation-rate studies).
 */
public record StoppingRule(int maxRuns, int failuresToConvict, int unexercisedAfter, int controlRunsToConvict,
                           boolean early, int benignAfter) {

  /**
   * Sequential stopping for benign: a heuristic that served stale values in this many runs without any failure has a
   * failure rate below {@link VerdictClassifier#BENIGN_FAILURE_RATE} with {@link VerdictClassifier#BENIGN_CONFIDENCE}
   * confidence (0.85^19 &lt; 0.05), and more runs would only narrow that.
   */
  public static final int BENIGN_AFTER = VerdictClassifier.runsForBenignConfidence();

  public static StoppingRule standard(int maxRuns) {
    return new StoppingRule(maxRuns, 3, Math.min(maxRuns, 5), 3, true, Math.min(maxRuns, BENIGN_AFTER));
  }

  public static StoppingRule exhaustive(int maxRuns) {
    return new StoppingRule(maxRuns, Integer.MAX_VALUE, maxRuns, Integer.MAX_VALUE, false, Integer.MAX_VALUE);
  }

  /**
   * A stable control runs in one round of this many (the first, the fourth, …), not in every round: its runs stay
   * spread over the same time, and so the same machine load, as the adversarial runs they are compared with.
   */
  public static final int CONTROL_EVERY = 3;

  /** An adversarial median this much above the control's brings the control back to every round. */
  public static final double SLOWDOWN_SUSPECT = 1.2;

  /** Whether {@code heuristic} needs no more runs, given every heuristic's tally of this field and test so far. */
  public boolean done(String heuristic, Map<String, Tally> tallies) {
    Tally tally = tallies.getOrDefault(heuristic, Tally.EMPTY);
    // a clean control behind a conviction that is not yet significant runs past maxRuns (controlRunsNeeded)
    boolean convictionControl = early && HeuristicTrials.SC.equals(heuristic) && convicted(tallies) != null;
    if (tally.runs() >= maxRuns && !convictionControl) return true;
    if (HeuristicTrials.SC.equals(heuristic)) {
      // a control that keeps timing out is given up on (flaky); one timeout among passes is re-run
      if (VerdictClassifier.controlKeepsTimingOut(tally.timeouts(), tally.runs()) || tally.timeouts() >= maxRuns) {
        return true;
      }
      if (early && convicted(tallies) != null) return tally.runs() >= controlRunsNeeded(tallies);
      return early && (tally.trialFailures() + unexplainedBesideAConviction(tallies) >= failuresToConvict
          || controlResting(tally, adversarialTallies(tallies)));
    }
    if (!early) return false;
    Tally control = tallies.get(HeuristicTrials.SC);
    boolean controlFailed = controlFailed(tallies);
    // a destructive race is decided by one heuristic: once one failed with stale values (and sc did not fail), only
    // it runs on, with the control — the others could refine the rate, never change the verdict
    String focus = convicted(tallies);
    if (focus != null && !focus.equals(heuristic)) return true;
    if (tally.explainedFailures() >= failuresToConvict && !controlFailed) return true;
    // a run killed at its limit reported no stale values, but that does not make it unexercised
    if (tally.runs() - tally.timeouts() >= unexercisedAfter && tally.staleReads() == 0) return true;
    // a slowdown the back-to-back pairs did not confirm was the machine's load: the benign rule applies as usual
    boolean refuted = PairedSlowdown.standard().refutes(tally.pairs(), adversarialHeuristics(tallies));
    // benign with stated confidence — unless a slowdown is building up (then qos needs the runs to be significant)
    boolean timed = ContainerRaces.durationsAreEvidence(heuristic); // perturbed runs are slow by their own waits
    if (tally.benignRuns() >= benignAfter && tally.failures() == 0 && tally.timeouts() == 0 && control != null
        && (!timed || refuted || !couldBeQos(VerdictClassifier.median(tally.timedMillis()),
            VerdictClassifier.median(control.timedMillis())))) {
      return true;
    }
    // a decisive slowdown stops the heuristic: the unit then confirms it in pairs (toConfirm), unless they refuted it
    return timed && tally.failures() == 0 && control != null && !controlFailed && !refuted
        && VerdictClassifier.standard().slower(tally.timedMillis(), control.timedMillis(), adversarialHeuristics(tallies));
  }

  /**
   * The adversarial heuristic whose slowdown the unit must confirm in back-to-back pairs before a qos verdict
   * ({@link PairedSlowdown}), or null: one without failures whose runs pass the classifier's screening rule against a
   * control without failures, and whose pairs have not decided yet (the slowest such first; none once one heuristic's
   * slowdown is confirmed). Asked when the unit's
   * other runs are done, in every mode: the classifier calls nothing qos without the pairs.
   */
  public static String toConfirm(Map<String, Tally> tallies) {
    Tally control = tallies.get(HeuristicTrials.SC);
    if (control == null || controlFailed(tallies)) return null;
    int comparisons = adversarialHeuristics(tallies);
    // one confirmed slowdown settles qos: the classifier needs no second one
    if (tallies.keySet().stream().anyMatch(h -> !HeuristicTrials.SC.equals(h) && confirmed(h, tallies))) return null;
    double base = VerdictClassifier.median(control.timedMillis());
    return tallies.entrySet().stream()
        .filter(e -> !HeuristicTrials.SC.equals(e.getKey()) && e.getValue().failures() == 0)
        .filter(e -> ContainerRaces.durationsAreEvidence(e.getKey())) // perturbed runs are slow by their own waits
        .filter(e -> !PairedSlowdown.standard().decided(e.getValue().pairs(), comparisons))
        .filter(e -> VerdictClassifier.standard().slower(e.getValue().timedMillis(), control.timedMillis(), comparisons))
        .max(java.util.Comparator.comparingDouble(e -> VerdictClassifier.median(e.getValue().timedMillis()) / Math.max(1, base)))
        .map(Map.Entry::getKey).orElse(null);
  }

  /** Whether the pairs of {@code heuristic} confirm its slowdown (its qos is decided). */
  public static boolean confirmed(String heuristic, Map<String, Tally> tallies) {
    return PairedSlowdown.standard().confirms(tallies.getOrDefault(heuristic, Tally.EMPTY).pairs(),
        adversarialHeuristics(tallies));
  }

  /**
   * Whether the control sits this round out: it is stable — it passed every run, none timed out, and no adversarial
   * heuristic failed, timed out or is suspected of a slowdown ({@link #slowdownSuspected}) — and it already has its
   * run for this stretch of {@link #CONTROL_EVERY} rounds (a round is one run of each open adversarial heuristic).
   * Its runs matter for three things, and each brings it back to every round: a failure (the Fisher comparison needs
   * the control's rate), a timeout (noise or QoS), a slowdown (the qos rule compares durations; Mann-Whitney with 6
   * timed control runs against 19 can still reach p &lt; 0.0025). Sampled every third round, not front-loaded, its
   * durations come from the same loads as the adversarial ones: a control that rested while the machine got busier
   * would make every later adversarial run look slow. So it also never rests {@link #CONTROL_EVERY} rounds in a row
   * since its last run ({@link Tally#round}): a control that ran in every early round (a slowdown suspected then)
   * would otherwise have its whole share of runs and rest for as many rounds as it ran — 8 rounds in a row, 260 s
   * of a loaded machine, in a reviewer's held-out triage.
   */
  public static boolean controlResting(Tally control, java.util.Collection<Tally> adversarial) {
    if (control.failures() > 0 || control.timeouts() > 0) return false;
    double base = VerdictClassifier.median(control.timedMillis());
    int rounds = 0;
    for (Tally t : adversarial) {
      if (t.failures() > 0 || t.timeouts() > 0) return false;
      if (!t.timedMillis().isEmpty() && slowdownSuspected(VerdictClassifier.median(t.timedMillis()), base)) return false;
      rounds = Math.max(rounds, t.runs());
    }
    return control.runs() >= 1 + rounds / CONTROL_EVERY && rounds - control.round() < CONTROL_EVERY;
  }

  /** Whether a median already meets the qos rule's size thresholds (1.5x and 10 ms above the control's). */
  private static boolean couldBeQos(double median, double control) {
    return median >= 1.5 * control && median - control >= VerdictClassifier.MIN_SLOWDOWN_MILLIS;
  }

  /**
   * Whether a median could be on its way to qos: {@link #SLOWDOWN_SUSPECT} times the control's and half the classifier's
   * floor ({@link VerdictClassifier#MIN_SLOWDOWN_MILLIS}) above it. The control resumes before either threshold of the
   * qos rule (1.5x, 10 ms) can be reached against its frozen median.
   */
  static boolean slowdownSuspected(double median, double control) {
    return median >= SLOWDOWN_SUSPECT * control && median - control >= VerdictClassifier.MIN_SLOWDOWN_MILLIS / 2.0;
  }

  private static List<Tally> adversarialTallies(Map<String, Tally> tallies) {
    return tallies.entrySet().stream().filter(e -> !HeuristicTrials.SC.equals(e.getKey())).map(Map.Entry::getValue)
        .toList();
  }

  /**
   * The heuristic that exposes the race best so far — most failures with stale values, then the highest such rate,
   * then by name — when one has such a failure and the control has none; null otherwise (sc failed: every heuristic
   * runs on, since any of them may be the one that fails significantly more often than the control).
   */
  public static String convicted(Map<String, Tally> tallies) {
    if (controlFailed(tallies)) return null;
    return tallies.entrySet().stream()
        .filter(e -> !HeuristicTrials.SC.equals(e.getKey()) && e.getValue().explainedFailures() > 0)
        .sorted(java.util.Comparator.<Map.Entry<String, Tally>>comparingInt(e -> -e.getValue().explainedFailures())
            .thenComparingDouble(e -> -(double) e.getValue().explainedFailures() / e.getValue().runs())
            .thenComparing(Map.Entry::getKey))
        .map(Map.Entry::getKey).findFirst().orElse(null);
  }

  /**
   * Runs of adversarial heuristics that failed without being served a stale value, once some run failed with stale
   * values: runs the control could have made, which count as the control's failures
   * ({@link VerdictClassifier#unexplainedBesideAConviction}); 0 before any such failure.
   */
  static int unexplainedBesideAConviction(Map<String, Tally> tallies) {
    return VerdictClassifier.unexplainedBesideAConviction(adversarialTallies(tallies).stream()
        .map(t -> new int[] {t.explainedFailures(), t.failures()}).toList());
  }

  /**
   * Whether the control has failed: a run under {@code sc} (or without the agent, for an intermittent baseline), or
   * a heuristic's run without stale values beside a failure with them.
   */
  static boolean controlFailed(Map<String, Tally> tallies) {
    Tally control = tallies.get(HeuristicTrials.SC);
    return control != null && (control.failures() > 0 || unexplainedBesideAConviction(tallies) > 0);
  }

  /** How many heuristics are compared with {@code sc}: the classifier corrects its significance level for them. */
  static int adversarialHeuristics(Map<String, Tally> tallies) {
    return (int) tallies.keySet().stream().filter(h -> !HeuristicTrials.SC.equals(h)).count();
  }

  /**
   * The clean control runs a conviction needs: enough that the convicting heuristic's k failures of n runs against
   * none of the control's m are significant ({@link VerdictClassifier#cleanControlRunsToConvict}: one-sided Fisher
   * at 5 %), no fewer than {@code controlRunsToConvict} and no fewer than the heuristic ran, at most
   * {@link #CONTROL_CAP} times {@code maxRuns}.
   * 3 of 3 needs 3 (p = 0.05), 3 of 4 needs 5, 3 of 6 needs 9, 3 of 14 needs 23, 2 of 20 the cap of
   * {@link #CONTROL_CAP} times {@code maxRuns} (60: p = 0.06). Below that a
   * test that fails on its own now and then — a clock check on a loaded machine — was often clean under {@code sc}
   * by luck: 6 clean control runs of a test failing one run in four happen 18 % of the time, 9 of them 8 %; a
   * control that fails meanwhile turns the verdict over to the Fisher comparison with the control's rate.
   */
  int controlRunsNeeded(Map<String, Tally> tallies) {
    String focus = convicted(tallies);
    if (focus == null) return controlRunsToConvict;
    Tally t = tallies.get(focus);
    return VerdictClassifier.cleanControlRunsToConvict(t.explainedFailures(), t.runs(),
        Math.max(controlRunsToConvict, t.runs()), CONTROL_CAP * maxRuns);
  }

  /**
   * How many times {@code maxRuns} a clean control may run behind a conviction that is not significant yet. A test
   * that fails one run in twenty on its own (a reviewer's unseeded {@code Random}) failed 2 of 20 runs under
   * {@code random} with stale values served and passed 20 clean control runs in 3 of 8 triages (0.95^20 = 36 %): 60
   * clean runs happen 5 % of the time. A race whose rare failures come only with stale values costs 40 runs more and
   * stays destructive (2 of 20 against 0 of 60: p = 0.06, which its evidence says).
   */
  static final int CONTROL_CAP = 3;

  /** Whether the field's verdict is settled, so none of its tests needs another run under any heuristic. */
  public boolean fieldDecided(Map<String, Tally> tallies) {
    if (!early) return false;
    Tally sc = tallies.get(HeuristicTrials.SC);
    if (sc != null && VerdictClassifier.controlKeepsTimingOut(sc.timeouts(), sc.runs())) return true; // flaky
    if (sc != null && controlFailed(tallies)) {
      // the control as the classifier counts it: heuristics' runs that failed without stale values are its runs
      int unexplained = unexplainedBesideAConviction(tallies);
      int scFailures = sc.failures() + unexplained;
      int scRuns = sc.runs() + unexplained;
      List<int[]> adversarial = adversarialTallies(tallies).stream()
          .map(t -> new int[] {t.explainedFailures(), t.runs() - (unexplained > 0 ? t.failures() - t.explainedFailures()
              : 0)}).toList();
      if (VerdictClassifier.standard().beyondControl(adversarial, scFailures, scRuns)) return true; // destructive
      if (sc.trialFailures() + unexplained < failuresToConvict) return false;
      // flaky — unless the heuristics together fail at least twice as often as the control: they run on (to their
      // maxRuns) while the Fisher comparison may still become significant
      int pooled = adversarial.stream().mapToInt(h -> h[0]).sum();
      int pooledRuns = adversarial.stream().mapToInt(h -> h[1]).sum();
      return pooledRuns == 0 || (double) pooled / pooledRuns < 2.0 * scFailures / scRuns;
    }
    boolean controlled = sc == null || sc.runs() >= controlRunsNeeded(tallies);
    return controlled && tallies.entrySet().stream()
        .anyMatch(e -> !HeuristicTrials.SC.equals(e.getKey()) && e.getValue().explainedFailures() >= failuresToConvict);
  }

  /**
   * Running counts for one (field, test, heuristic); {@code timedMillis} leaves out warm-up runs. Timeouts are never
   * failures: under {@code sc} a timeout is not a run (the control runs again), under an adversarial heuristic it is
   * a run whose duration is its limit.
   */
  public record Tally(int runs, int failures, int explainedFailures, long staleReads, List<Long> timedMillis,
                      int timeouts, int exercisedRuns, List<PairedRun> pairs, Map<String, Integer> sharedFrom,
                      java.util.Set<String> notShared, int round, int failuresWithoutAgent) {
    public static final Tally EMPTY = new Tally(0, 0, 0, 0, List.of(), 0, 0, List.of());

    public Tally {
      timedMillis = List.copyOf(timedMillis);
      pairs = List.copyOf(pairs);
      sharedFrom = Map.copyOf(sharedFrom);
      notShared = java.util.Set.copyOf(notShared);
    }

    /** A tally that no other heuristic's runs count for. */
    public Tally(int runs, int failures, int explainedFailures, long staleReads, List<Long> timedMillis, int timeouts,
                 int exercisedRuns, List<PairedRun> pairs) {
      this(runs, failures, explainedFailures, staleReads, timedMillis, timeouts, exercisedRuns, pairs, Map.of(),
          java.util.Set.of(), 0, 0);
    }

    /**
     * The control's tally of a test that failed {@code failures} of its {@code runs} runs without the agent (an
     * intermittent baseline): runs served no stale value, so they count as the control's. The control then has failed,
     * so a failing heuristic convicts only by failing significantly more often (the Fisher comparison); those failures
     * never count towards the control's own {@code failuresToConvict} ({@link #trialFailures}).
     */
    public static Tally withoutAgent(int failures, int runs) {
      return new Tally(runs, failures, 0, 0, List.of(), 0, 0, List.of(), Map.of(), java.util.Set.of(), 0, failures);
    }

    /** Failures of runs under the agent (not those {@link #withoutAgent} the tally started from). */
    public int trialFailures() {
      return failures - failuresWithoutAgent;
    }

    /** This tally of the control, which last ran when the adversarial heuristics had run {@code round} rounds. */
    public Tally atRound(int round) {
      return new Tally(runs, failures, explainedFailures, staleReads, timedMillis, timeouts, exercisedRuns, pairs,
          sharedFrom, notShared, round, failuresWithoutAgent);
    }

    /**
     * The runs that count for the benign rule: this heuristic's own runs that served stale values, and those of other
     * heuristics that it shares ({@link SharedRuns}: every run of such a heuristic in this unit passed and chose
     * every read as this one would).
     */
    public int benignRuns() {
      int n = exercisedRuns;
      for (Map.Entry<String, Integer> e : sharedFrom.entrySet()) {
        if (!notShared.contains(e.getKey())) n += e.getValue();
      }
      return n;
    }

    /** This tally with one more confirmation pair (its runs are already counted). */
    public Tally withPair(PairedRun pair) {
      List<PairedRun> more = new ArrayList<>(pairs);
      more.add(pair);
      return new Tally(runs, failures, explainedFailures, staleReads, timedMillis, timeouts, exercisedRuns, more,
          sharedFrom, notShared, round, failuresWithoutAgent);
    }

    /**
     * This tally of {@code heuristic} after a run of another heuristic: counted for it if it is a run
     * {@code heuristic} shares ({@link SharedRuns#sharedWith}), else ending what that heuristic's runs count for it.
     */
    public Tally lent(String heuristic, TrialOutcome other) {
      String source = other.spec().heuristic();
      if (notShared.contains(source)) return this;
      if (!SharedRuns.sharedWith(other, heuristic)) {
        java.util.Set<String> ended = new java.util.HashSet<>(notShared);
        ended.add(source);
        return new Tally(runs, failures, explainedFailures, staleReads, timedMillis, timeouts, exercisedRuns, pairs,
            sharedFrom, ended, round, failuresWithoutAgent);
      }
      if (other.staleReads() == 0) return this;
      Map<String, Integer> more = new java.util.HashMap<>(sharedFrom);
      more.merge(source, 1, Integer::sum);
      return new Tally(runs, failures, explainedFailures, staleReads, timedMillis, timeouts, exercisedRuns, pairs, more,
          notShared, round, failuresWithoutAgent);
    }

    public Tally plus(TrialOutcome outcome) {
      if (outcome.timedOut() && outcome.isControl()) {
        return new Tally(runs, failures, explainedFailures, staleReads, timedMillis, timeouts + 1, exercisedRuns, pairs,
            sharedFrom, notShared, round, failuresWithoutAgent);
      }
      boolean explained = outcome.failed() && outcome.staleReads() > 0;
      List<Long> timed = timedMillis;
      if (!outcome.warmUp()) {
        timed = new ArrayList<>(timedMillis);
        timed.add(outcome.millis());
      }
      return new Tally(runs + 1, failures + (outcome.failed() ? 1 : 0), explainedFailures + (explained ? 1 : 0),
          staleReads + outcome.staleReads(), timed, timeouts + (outcome.timedOut() ? 1 : 0),
          exercisedRuns + (outcome.staleReads() > 0 ? 1 : 0), pairs, sharedFrom, notShared, round,
          failuresWithoutAgent);
    }
  }

  /**
   * Adds {@code outcome} to its heuristic's tally, and lends it to every other heuristic among
   * {@code heuristics} (the unit's), whose benign rule may count it ({@link SharedRuns}).
   */
  public static void tally(Map<String, Tally> tallies, TrialOutcome outcome, java.util.Collection<String> heuristics) {
    String own = outcome.spec().heuristic();
    tallies.merge(own, Tally.EMPTY.plus(outcome), (a, b) -> a.plus(outcome));
    if (HeuristicTrials.SC.equals(own)) { // when the control ran: its rests are counted from there (controlResting)
      int rounds = adversarialTallies(tallies).stream().mapToInt(Tally::runs).max().orElse(0);
      tallies.computeIfPresent(own, (h, t) -> t.atRound(rounds));
    }
    if (!SharedRuns.SHARING.contains(own)) return;
    for (String h : heuristics) {
      if (!h.equals(own) && SharedRuns.SHARING.contains(h)) {
        tallies.merge(h, Tally.EMPTY.lent(h, outcome), (a, b) -> a.lent(h, outcome));
      }
    }
  }
}
