package dev.racetriage.runner.trial;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs trial cells on {@code jobs} parallel workers. The cells of one (field, test) pair form one unit of work, run
 * in one {@link TrialSession} with their heuristics interleaved ({@code sc}, h1, h2, …, {@code sc}, h1, …), so that
 * in a reused JVM the control and the adversarial runs see the same warm-up and the same machine load, and so the
 * {@link StoppingRule} can compare them as they go. Units start in the order given (the caller orders fields by the
 * static prefilter's confidence); once a field is decided, none of its units starts another run. Past the
 * {@code deadline} no new run starts, and the evidence gathered so far stands. With {@link #withGroups} the races of
 * one test are screened together first ({@link GroupScreen}), and what a screen leaves undecided — split halves,
 * single fields — is submitted to the same workers as it comes; with {@link #withFollowUp} a field's follow-up runs as
 * soon as its own work has ended. Workers take whatever is queued, so no worker idles while there is work anywhere.
 */
public final class TrialScheduler {
  private final TrialSession.Factory sessions;
  private final StoppingRule rule;
  private final int jobs;
  private final Instant deadline;
  private final AtomicInteger jvms = new AtomicInteger();
  private final List<String> fallbacks = Collections.synchronizedList(new ArrayList<>());

  public TrialScheduler(TrialSession.Factory sessions, StoppingRule rule, int jobs, Instant deadline) {
    this.sessions = sessions;
    this.rule = rule;
    this.jobs = jobs;
    this.deadline = deadline;
  }

  public TrialScheduler(TrialExecutor executor, StoppingRule rule, int jobs, Instant deadline) {
    this(TrialSession.perRun(executor), rule, jobs, deadline);
  }

  /** Test JVMs started by the last {@link #run}. */
  public int jvmsStarted() {
    return jvms.get();
  }

  /** Why (field, test) pairs of the last {@link #run} fell back from a reused JVM to a JVM per run. */
  public List<String> fallbacks() {
    return List.copyOf(fallbacks);
  }

  /**
   * What to run for a field once all of its units have ended: {@code next} maps the field's cells and outcomes to
   * more cells (none: nothing), run with their own sessions and stopping rule on the same workers — so a follow-up
   * starts as soon as its field is done, not after every other field (no idle worker at a phase barrier).
   */
  public record FollowUp(TrialSession.Factory sessions, StoppingRule rule,
                         java.util.function.BiFunction<List<TrialCell>, List<TrialOutcome>, List<TrialCell>> next) {}

  private FollowUp followUp;

  /** This scheduler, running {@code followUp} for each field as its units end. */
  public TrialScheduler withFollowUp(FollowUp followUp) {
    this.followUp = followUp;
    return this;
  }

  /** (field, test) units the follow-ups of the last {@link #run} added. */
  private final AtomicInteger followUpUnits = new AtomicInteger();

  /** Follow-up units the last {@link #run} started. */
  public int followUpUnits() {
    return followUpUnits.get();
  }

  /** Per test id, {failures, runs} without the agent of a test whose baseline failed intermittently. */
  private Map<String, int[]> withoutAgent = Map.of();

  /**
   * Seeds the control of every unit of these tests (by JUnit unique id: {failures, runs} without the agent) with
   * those runs ({@link StoppingRule.Tally#withoutAgent}): a test known to fail on its own now and then convicts a
   * race only by failing significantly more often under stale values, as the classifier then judges it.
   */
  public TrialScheduler withoutAgent(Map<String, int[]> failuresAndRuns) {
    this.withoutAgent = Map.copyOf(failuresAndRuns);
    return this;
  }

  private GroupScreen groupScreen;
  private final AtomicInteger discardedGroupRuns = new AtomicInteger();
  private final AtomicInteger groupScreens = new AtomicInteger();

  /** This scheduler, screening the races of one test together first ({@link GroupScreen}: group testing). */
  public TrialScheduler withGroups(GroupScreen screen) {
    this.groupScreen = screen;
    return this;
  }

  /**
   * Decisions shared beyond this scheduler: other processes running units of the same races (a distributed triage's
   * workers). {@code decided} is asked before each run of a unit; {@code decide} is told when a unit here decides.
   */
  public interface SharedDecisions {
    boolean decided(String field);

    void decide(String field);
  }

  private SharedDecisions shared;

  /** This scheduler, also stopping a race's units when {@code decisions} says another process decided it. */
  public TrialScheduler withSharedDecisions(SharedDecisions decisions) {
    this.shared = decisions;
    return this;
  }

  private boolean decided(Set<String> decidedFields, String field) {
    return decidedFields.contains(field) || (shared != null && shared.decided(field));
  }

  private final AtomicInteger testRuns = new AtomicInteger();

  /**
   * Test runs of the last {@link #run}: one per run of a unit, one per run of a group screen (whose one run gives
   * every field of the group an outcome), split groups' runs included.
   */
  public int testRuns() {
    return testRuns.get();
  }

  /** Test runs of groups that were split (evidence for nobody) in the last {@link #run}. */
  public int discardedGroupRuns() {
    return discardedGroupRuns.get();
  }

  /** Groups screened (splits included) in the last {@link #run}. */
  public int groupScreens() {
    return groupScreens.get();
  }

  /** A finished task: a unit of {@code field} ({@code followUp}: one of a follow-up), or a group screen. */
  private record Finished(String field, boolean followUp, List<TrialCell> group, GroupScreen.Result screened) {}

  /** Runs every cell; {@code onOutcome} sees each trial as it finishes (from worker threads). */
  public List<TrialOutcome> run(List<TrialCell> cells, Consumer<TrialOutcome> onOutcome) throws InterruptedException {
    List<List<TrialCell>> groups = groupScreen == null ? List.of() : GroupScreen.groups(cells);
    Set<String> grouped = new java.util.HashSet<>();
    groups.forEach(g -> g.forEach(c -> grouped.add(c.fieldKey())));
    Map<List<String>, List<TrialCell>> units = units(cells.stream().filter(c -> !grouped.contains(c.fieldKey())).toList());
    List<TrialOutcome> outcomes = Collections.synchronizedList(new ArrayList<>());
    Set<String> decidedFields = ConcurrentHashMap.newKeySet();
    Map<String, Integer> inFlight = new HashMap<>();
    Map<String, List<TrialCell>> cellsByField = new LinkedHashMap<>();
    for (TrialCell cell : cells) cellsByField.computeIfAbsent(cell.fieldKey(), f -> new ArrayList<>()).add(cell);
    jvms.set(0);
    followUpUnits.set(0);
    discardedGroupRuns.set(0);
    groupScreens.set(0);
    testRuns.set(0);
    fallbacks.clear();
    Consumer<TrialOutcome> sink = outcome -> {
      outcomes.add(outcome);
      onOutcome.accept(outcome);
    };
    // all jobs: splits and follow-ups add work as it goes (a fixed pool starts its threads only as tasks arrive)
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, jobs), r -> {
      Thread t = new Thread(r, "racetriage-trials");
      t.setDaemon(true);
      return t;
    });
    java.util.concurrent.ExecutorCompletionService<Finished> done = new java.util.concurrent.ExecutorCompletionService<>(pool);
    int[] outstanding = {0};
    // a split group's passes, per field: already in the sink, and where the field's half or own unit goes on from
    Map<String, List<TrialOutcome>> carried = new HashMap<>();
    java.util.function.BiConsumer<List<TrialCell>, Boolean> submitUnit = (unit, followUpUnit) -> {
      String field = unit.get(0).fieldKey();
      inFlight.merge(field, 1, Integer::sum);
      outstanding[0]++;
      List<TrialOutcome> prior = followUpUnit ? List.of() : List.copyOf(carried.getOrDefault(field, List.of()));
      done.submit(() -> {
        if (followUpUnit) {
          runUnit(unit, followUp.sessions(), followUp.rule(), decidedFields, sink, prior);
        } else {
          runUnit(unit, sessions, rule, decidedFields, sink, prior);
        }
        return new Finished(field, followUpUnit, null, null);
      });
    };
    Consumer<List<TrialCell>> submitGroup = group -> {
      Map<String, List<TrialOutcome>> prior = new HashMap<>();
      group.stream().map(TrialCell::fieldKey).distinct().forEach(f -> {
        inFlight.merge(f, 1, Integer::sum);
        if (carried.containsKey(f)) prior.put(f, List.copyOf(carried.get(f)));
      });
      outstanding[0]++;
      groupScreens.incrementAndGet();
      done.submit(() -> new Finished(null, false, group, groupScreen.run(group, () -> !beforeDeadline(), prior)));
    };
    // what a screen adds to a field's evidence: its outcomes past those carried into it
    java.util.function.BiConsumer<String, List<TrialOutcome>> emitNew = (field, all) -> {
      int known = carried.getOrDefault(field, List.of()).size();
      all.subList(Math.min(known, all.size()), all.size()).forEach(sink);
    };
    try {
      groups.forEach(submitGroup);
      for (List<TrialCell> unit : units.values()) submitUnit.accept(unit, false);
      while (outstanding[0] > 0) {
        Finished finished;
        try {
          finished = done.take().get();
        } catch (ExecutionException e) {
          throw new IllegalStateException("a trial worker failed: " + e.getCause(), e.getCause());
        }
        outstanding[0]--;
        List<String> ended = new ArrayList<>();
        if (finished.group() != null) {
          GroupScreen.Result r = finished.screened();
          jvms.addAndGet(r.jvms());
          discardedGroupRuns.addAndGet(r.discardedRuns());
          testRuns.addAndGet(r.runs());
          r.benign().forEach(emitNew);
          r.carried().forEach((field, all) -> {
            emitNew.accept(field, all);
            carried.put(field, all);
          });
          List<List<String>> alone = new ArrayList<>();
          r.singles().forEach(f -> alone.add(List.of(f)));
          for (List<String> half : r.splits()) {
            if (half.size() == 1) alone.add(half);
            else submitGroup.accept(finished.group().stream().filter(c -> half.contains(c.fieldKey())).toList());
          }
          for (List<String> one : alone) {
            units(cellsByField.get(one.get(0))).values().forEach(u -> submitUnit.accept(u, false));
          }
          finished.group().stream().map(TrialCell::fieldKey).distinct().forEach(ended::add);
        } else {
          ended.add(finished.field());
        }
        for (String field : ended) {
          if (inFlight.merge(field, -1, Integer::sum) != 0 || followUp == null) continue;
          if (finished.followUp()) continue; // a follow-up has no follow-up
          List<TrialOutcome> mine;
          synchronized (outcomes) {
            mine = outcomes.stream().filter(o -> o.spec().fieldKey().equals(field)).toList();
          }
          for (List<TrialCell> unit : units(followUp.next().apply(cellsByField.get(field), mine)).values()) {
            followUpUnits.incrementAndGet();
            submitUnit.accept(unit, true);
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return List.copyOf(outcomes);
  }

  /** The cells of each (field, test) pair: one unit of work each, in the order given. */
  private static Map<List<String>, List<TrialCell>> units(List<TrialCell> cells) {
    Map<List<String>, List<TrialCell>> units = new LinkedHashMap<>();
    for (TrialCell cell : cells) {
      units.computeIfAbsent(List.of(cell.fieldKey(), cell.testId()), k -> new ArrayList<>()).add(cell);
    }
    return units;
  }

  /** Runs one (field, test) unit, going on from {@code prior} (a split group's passes for that field and test). */
  private void runUnit(List<TrialCell> unit, TrialSession.Factory sessions, StoppingRule rule,
      Set<String> decidedFields, Consumer<TrialOutcome> sink, List<TrialOutcome> prior) throws InterruptedException {
    String field = unit.get(0).fieldKey();
    Map<String, StoppingRule.Tally> tallies = new HashMap<>();
    List<String> heuristics = unit.stream().map(TrialCell::heuristic).toList();
    int[] nativeRuns = withoutAgent.get(unit.get(0).testId());
    if (nativeRuns != null && nativeRuns[1] > 0 && heuristics.contains("sc")) {
      tallies.put("sc", StoppingRule.Tally.withoutAgent(nativeRuns[0], nativeRuns[1]));
    }
    for (TrialOutcome o : prior) {
      if (o.spec().testId().equals(unit.get(0).testId())) StoppingRule.tally(tallies, o, heuristics);
    }
    Map<String, Integer> runNumbers = new HashMap<>();
    Set<String> confirming = new java.util.HashSet<>();
    try (TrialSession session = sessions.open(field, unit.get(0).testId())) {
      Run runOne = (cell, pair) -> {
        int run = runNumbers.merge(cell.heuristic(), 1, Integer::sum) - 1;
        TrialOutcome o = session.run(cell.spec(run));
        if (pair != null) o = o.paired(pair);
        testRuns.incrementAndGet();
        StoppingRule.tally(tallies, o, heuristics);
        sink.accept(o);
        if (rule.fieldDecided(tallies) && decidedFields.add(field) && shared != null) shared.decide(field);
        return o;
      };
      try {
        while (!decided(decidedFields, field) && beforeDeadline()) {
          List<TrialCell> open = unit.stream().filter(c -> !rule.done(c.heuristic(), tallies)).toList();
          // sc is only the control: once every adversarial heuristic is done, it has nothing left to compare with
          // (unless a heuristic convicts and the control has not yet run as often: StoppingRule.controlRunsNeeded)
          if (open.isEmpty() || (unit.size() > 1 && open.stream().allMatch(c -> c.heuristic().equals("sc"))
              && StoppingRule.convicted(tallies) == null)) {
            // before a qos verdict, the slowdown is confirmed in back-to-back pairs (at most once per heuristic)
            String slow = StoppingRule.toConfirm(tallies);
            TrialCell control = cellOf(unit, "sc");
            TrialCell adversarial = slow == null ? null : cellOf(unit, slow);
            if (control == null || adversarial == null || !confirming.add(slow)) break;
            confirm(control, adversarial, runOne, tallies, () -> decided(decidedFields, field) || !beforeDeadline());
            continue;
          }
          for (TrialCell cell : open) {
            if (decided(decidedFields, field) || !beforeDeadline()) break;
            // an earlier run of this round can settle this heuristic (a failure focuses the unit on its heuristic)
            if (rule.done(cell.heuristic(), tallies)) continue;
            TrialOutcome outcome;
            do { // a control run that timed out is the machine's noise: it is run again at once
              outcome = runOne.run(cell, null);
            } while (outcome.timedOut() && outcome.isControl() && !rule.done(cell.heuristic(), tallies)
                && !decided(decidedFields, field) && beforeDeadline());
          }
        }
      } finally {
        jvms.addAndGet(session.jvmsStarted());
        if (session.fallbackReason() != null) {
          fallbacks.add(field + " with " + unit.get(0).testName() + ": " + session.fallbackReason());
        }
      }
    }
  }

  /** One run of a unit: counted, tallied, passed to the sink; {@code pair} marks a confirmation pair's run. */
  @FunctionalInterface
  private interface Run {
    TrialOutcome run(TrialCell cell, TrialOutcome.Pair pair) throws InterruptedException;
  }

  private static TrialCell cellOf(List<TrialCell> unit, String heuristic) {
    return unit.stream().filter(c -> c.heuristic().equals(heuristic)).findFirst().orElse(null);
  }

  /**
   * Confirms {@code adversarial}'s slowdown in back-to-back pairs with the control (the order alternating, so a
   * steady drift in load favours neither side) until {@link dev.racetriage.runner.verdict.PairedSlowdown} decides,
   * a run fails or times out under sc (the main rounds take over: the verdict may no longer be about time), or
   * {@code stop}. Pairs that are not comparable (a warm-up run, a control that timed out) are run again, within twice
   * the pairs a confirmation needs.
   */
  private static void confirm(TrialCell control, TrialCell adversarial, Run runOne,
      Map<String, StoppingRule.Tally> tallies, java.util.function.BooleanSupplier stop) throws InterruptedException {
    String h = adversarial.heuristic();
    int comparisons = StoppingRule.adversarialHeuristics(tallies);
    dev.racetriage.runner.verdict.PairedSlowdown paired = dev.racetriage.runner.verdict.PairedSlowdown.standard();
    for (int index = 1; index <= 2 * dev.racetriage.runner.verdict.PairedSlowdown.PAIRS; index++) {
      if (stop.getAsBoolean() || paired.decided(tallies.get(h).pairs(), comparisons)) return;
      TrialOutcome.Pair pair = new TrialOutcome.Pair(h, index);
      boolean controlFirst = index % 2 == 1;
      TrialOutcome first = runOne.run(controlFirst ? control : adversarial, pair);
      if (first.failed() || stop.getAsBoolean()) return;
      TrialOutcome second = runOne.run(controlFirst ? adversarial : control, pair);
      if (second.failed()) return;
      TrialOutcome sc = controlFirst ? first : second;
      TrialOutcome adv = controlFirst ? second : first;
      if (TrialEvidence.comparable(sc, adv)) {
        tallies.compute(h, (k, t) -> t.withPair(new dev.racetriage.runner.verdict.PairedRun(sc.millis(), adv.millis())));
      }
    }
  }

  private boolean beforeDeadline() {
    return deadline == null || Instant.now().isBefore(deadline);
  }
}
