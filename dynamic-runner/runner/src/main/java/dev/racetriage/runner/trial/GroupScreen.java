package dev.racetriage.runner.trial;

import com.fasterxml.jackson.databind.JsonNode;
import dev.racetriage.runner.fork.TestSelection;
import dev.racetriage.runner.fork.TrialServerProcess;
import dev.racetriage.runner.verdict.HeuristicTrials;
import dev.racetriage.runner.verdict.PairedRun;
import dev.racetriage.runner.verdict.PairedSlowdown;
import dev.racetriage.runner.verdict.VerdictClassifier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Group testing for the benign majority: several races of one test jumbled together in one trial server, each run
 * evidence for every field it served stale values to. Heuristics are interleaved run by run as in a single-field
 * unit ({@code sc} the control). The screen ends one of three ways:
 *
 * <ul>
 *   <li><b>split</b>: a run failed, timed out or ended its JVM, or a heuristic's runs became 1.5× slower than the
 *       control's — something in the group is destructive or qos, and a group cannot say which. The group's runs are
 *       not evidence for anyone (they are discarded and counted in {@link Result#discardedRuns}); the caller bisects:
 *       each half is screened again, and a field alone gets the usual single-field trials, which confirm it alone;</li>
 *   <li><b>benign</b> for a field that, under every adversarial heuristic, was served stale values in
 *       {@link StoppingRule#BENIGN_AFTER} runs without a failure (or got none in {@code unexercisedAfter} runs under
 *       that heuristic, as a single field's trials would stop too) and was served some stale value overall: its share of
 *       the group's runs is its evidence, exactly as its own runs would be (same rule, same facts);</li>
 *   <li><b>single</b> for a field the group did not exercise at all: its own trials decide it (and the fresh-JVM
 *       retry after them, if those do not exercise it either).</li>
 * </ul>
 *
 * A group's pass cannot hide what a failure would show: any failure splits it, and a field is concluded benign only by
 * the same count of failure-free exercised runs per heuristic that concludes a single field. What grouping can hide is
 * a failure that a co-jumbled field's stale value prevents (a stale guard sends the reader down a locked path where
 * the guarded data is fresh): so fields of one class — a guard and its data are usually declared together — are never
 * grouped ({@link #groups}).
 */
public final class GroupScreen {
  /** Group runs are numbered from here: seeds of their own, never a single-field trial's or the fresh retry's. */
  public static final int FIRST_RUN = 2000;
  /** At most this many fields in one group (each jumbled field costs every run a write buffer). */
  static final int MAX_GROUP = 8;
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final JvmTrialExecutor executor;
  private final StoppingRule rule;

  public GroupScreen(JvmTrialExecutor executor, StoppingRule rule) {
    this.executor = executor;
    this.rule = rule;
  }

  /**
   * How a screen ended; {@code benign}: each concluded field's outcomes (the evidence its verdict rests on);
   * {@code carried}: after a split on a failure, a timeout or the JVM's end, the passing runs of each field the group
   * had served stale values — but for the splitting heuristic's — evidence for it as in a concluded group, which its
   * half (or its own trials) goes on from.
   */
  public record Result(Map<String, List<TrialOutcome>> benign, List<String> singles, List<List<String>> splits,
                       int discardedRuns, String splitReason, int jvms, int runs,
                       Map<String, List<TrialOutcome>> carried) {
    public Result(Map<String, List<TrialOutcome>> benign, List<String> singles, List<List<String>> splits,
        int discardedRuns, String splitReason, int jvms, int runs) {
      this(benign, singles, splits, discardedRuns, splitReason, jvms, runs, Map.of());
    }
  }

  /**
   * The groups of fields worth screening together: per test, the fields whose only test it is, that are no array
   * (their sampled elements are per field), at most one per declaring class (a guard and its data are usually
   * declared together, and a stale guard can hide stale data), at most {@link #MAX_GROUP}. Groups of one are left out
   * (their field's own trials are the same thing).
   */
  public static List<List<TrialCell>> groups(List<TrialCell> cells) {
    Map<String, List<String>> testsByField = new HashMap<>();
    for (TrialCell c : cells) {
      List<String> tests = testsByField.computeIfAbsent(c.fieldKey(), f -> new ArrayList<>());
      if (!tests.contains(c.testId())) tests.add(c.testId());
    }
    Map<String, List<List<TrialCell>>> byTest = new LinkedHashMap<>();
    Map<String, List<TrialCell>> cellsByField = new LinkedHashMap<>();
    for (TrialCell c : cells) {
      // arrays and containers (tried by schedule perturbation, ContainerRaces) are tried on their own
      if (c.fieldKey().endsWith("[]") || ContainerRaces.isContainer(c.fieldKey())
          || testsByField.get(c.fieldKey()).size() != 1) continue;
      cellsByField.computeIfAbsent(c.fieldKey(), f -> new ArrayList<>()).add(c);
    }
    for (List<TrialCell> fieldCells : cellsByField.values()) {
      String test = fieldCells.get(0).testId();
      String cls = declaringClass(fieldCells.get(0).fieldKey());
      List<List<TrialCell>> groups = byTest.computeIfAbsent(test, t -> new ArrayList<>());
      List<TrialCell> target = null;
      for (List<TrialCell> g : groups) {
        boolean sameClass = g.stream().anyMatch(c -> declaringClass(c.fieldKey()).equals(cls));
        long fields = g.stream().map(TrialCell::fieldKey).distinct().count();
        if (!sameClass && fields < MAX_GROUP) {
          target = g;
          break;
        }
      }
      if (target == null) {
        target = new ArrayList<>();
        groups.add(target);
      }
      target.addAll(fieldCells);
    }
    List<List<TrialCell>> out = new ArrayList<>();
    for (List<List<TrialCell>> groups : byTest.values()) {
      for (List<TrialCell> g : groups) {
        if (g.stream().map(TrialCell::fieldKey).distinct().count() > 1) out.add(g);
      }
    }
    return out;
  }

  static String declaringClass(String fieldKey) {
    return fieldKey.substring(0, fieldKey.lastIndexOf('.'));
  }

  /** Screens one group: all its fields jumbled together, one test, heuristics interleaved, until it ends. */
  public Result run(List<TrialCell> group, java.util.function.BooleanSupplier stop) throws InterruptedException {
    return run(group, stop, Map.of());
  }

  /**
   * Screens one group that goes on from {@code prior}: the passing runs a larger group it was split from gave each of
   * its fields ({@link Result#carried}). They count as this group's own runs (tallies, the benign rule) and stay in
   * each field's evidence; this group's runs are numbered after them.
   */
  public Result run(List<TrialCell> group, java.util.function.BooleanSupplier stop,
      Map<String, List<TrialOutcome>> prior) throws InterruptedException {
    List<String> fields = group.stream().map(TrialCell::fieldKey).distinct().toList();
    List<String> heuristics = group.stream().map(TrialCell::heuristic).distinct().toList();
    TrialCell first = group.get(0);
    String testId = first.testId();
    Map<String, List<TrialOutcome>> byField = new LinkedHashMap<>();
    fields.forEach(f -> byField.put(f, new ArrayList<>()));
    // per field and heuristic, as a single field's unit would count them
    Map<String, Map<String, StoppingRule.Tally>> tallies = new HashMap<>();
    fields.forEach(f -> tallies.put(f, new HashMap<>()));
    Map<String, List<Long>> timed = new HashMap<>();
    // prior runs: per field as they were; the group's timings from its first field's (every field has the same runs)
    int priorRuns = 0;
    for (String field : fields) {
      for (TrialOutcome o : prior.getOrDefault(field, List.of())) {
        byField.get(field).add(o);
        StoppingRule.tally(tallies.get(field), o, heuristics);
      }
      priorRuns = Math.max(priorRuns, prior.getOrDefault(field, List.of()).size());
    }
    int runs = 0;
    // a half's seeds depend on its fields, so they never repeat its larger group's (whose runs it carries)
    TrialCell seeds = prior.isEmpty() ? first
        : new TrialCell(String.join(",", fields), testId, first.testName(), first.heuristic());
    TrialServerProcess server = null;
    Path dir = null;
    int jvms = 0;
    int runsInServer = 0;
    String splitReason = null;
    String splitUnder = null; // the heuristic of the run that failed, timed out or ended the JVM
    List<String> suspects = List.of(); // the fields a failing run points at (its first part when the group splits)
    String confirming = null; // the heuristic whose suspected slowdown the pairs are confirming
    int pairIndex = 0;
    List<PairedRun> pairs = new ArrayList<>();
    java.util.Set<String> refuted = new java.util.HashSet<>();
    PairedSlowdown paired = PairedSlowdown.standard();
    int comparisons = (int) heuristics.stream().filter(h -> !HeuristicTrials.SC.equals(h)).count();
    try {
      while (splitReason == null) {
        if (stop.getAsBoolean()) {
          splitReason = "the --budget ran out"; // nothing concluded: the fields are left to their own trials
          break;
        }
        List<String> round = new ArrayList<>();
        TrialOutcome.Pair pair = null;
        if (confirming != null) {
          // a suspected slowdown is confirmed in back-to-back pairs of sc and its heuristic, the order alternating
          pair = new TrialOutcome.Pair(confirming, ++pairIndex);
          round.addAll(pairIndex % 2 == 1 ? List.of(HeuristicTrials.SC, confirming) : List.of(confirming, HeuristicTrials.SC));
        } else {
          List<String> open = heuristics.stream().filter(h -> !HeuristicTrials.SC.equals(h))
              .filter(h -> fields.stream().anyMatch(f -> !fieldDone(h, tallies.get(f)))).toList();
          if (open.isEmpty()) break;
          // the control as in a single field's unit: every third round while stable (every field has the same runs)
          Map<String, StoppingRule.Tally> lead = tallies.get(fields.get(0));
          boolean controlResting = StoppingRule.controlResting(lead.getOrDefault(HeuristicTrials.SC, StoppingRule.Tally.EMPTY),
              heuristics.stream().filter(h -> !HeuristicTrials.SC.equals(h))
                  .map(h -> lead.getOrDefault(h, StoppingRule.Tally.EMPTY)).toList());
          if (heuristics.contains(HeuristicTrials.SC) && !controlResting) round.add(HeuristicTrials.SC);
          round.addAll(open);
        }
        Map<String, TrialOutcome> pairRuns = new HashMap<>();
        for (String h : round) {
          if (server == null) {
            dir = executor.newTrialDir();
            server = start(fields, testId, dir);
            jvms++;
            runsInServer = 0;
            if (server == null) {
              splitReason = "the trial server did not start";
              break;
            }
          }
          long seed = seeds.seed(FIRST_RUN + priorRuns + runs);
          String options = agentOptions(fields, h, seed, dir.resolve("jumble.jsonl").toString(), first.indices());
          TrialLimits.Limit limit = executor.limits().limit(fields.get(0), testId, false);
          TrialServerProcess.Reply reply = server.run(h, seed, limit.duration());
          runs++;
          if (!(reply instanceof TrialServerProcess.Reply.Answer answer)) {
            splitUnder = h;
            splitReason = reply instanceof TrialServerProcess.Reply.TimedOut
                ? "a run under " + h + " timed out (" + limit.describe() + ")" : "the test JVM ended during a run";
            server = null; // killed, or gone
            break;
          }
          runsInServer++;
          JsonNode run = answer.run();
          String status = run.path("status").asText();
          if (!"passed".equals(status)) {
            JsonNode f = run.path("failure");
            splitUnder = h;
            splitReason = "a run under " + h + " failed (" + (f.isObject() ? f.path("type").asText() : status) + ")";
            suspects = suspects(fields, run);
            break;
          }
          long millis = run.path("millis").asLong();
          boolean warmUp = runsInServer == 1;
          if (!warmUp) timed.computeIfAbsent(h, k -> new ArrayList<>()).add(millis);
          String replay = executor.jvm(testId).replayCommand(TestSelection.of(testId), Optional.of(options),
              dir.resolve("results.jsonl"));
          // the group's run is another heuristic's run only if every field of it chose alike
          java.util.Set<String> same = null;
          for (String field : fields) {
            java.util.Set<String> these = new java.util.HashSet<>(SharedRuns.sameChoices(h, field, run.path("fields")));
            if (same != null) these.retainAll(same);
            same = these;
          }
          for (String field : fields) {
            long reads = 0;
            long stale = 0;
            for (JsonNode fc : run.path("fields")) {
              if (field.equals(fc.path("field").asText())) {
                reads += fc.path("reads").asLong();
                stale += fc.path("staleReads").asLong();
              }
            }
            TrialSpec spec = new TrialSpec(field, testId, testName(group, field), h, seed, first.indices());
            TrialOutcome o = new TrialOutcome(spec, TrialOutcome.Result.PASS, millis, reads, stale, null, replay, warmUp)
                .paired(pair).withSameChoices(same);
            byField.get(field).add(o);
            StoppingRule.tally(tallies.get(field), o, heuristics);
            if (h.equals(HeuristicTrials.SC) && field.equals(fields.get(0))) executor.limits().record(o);
            if (field.equals(fields.get(0))) pairRuns.put(h, o);
          }
          if (confirming == null) {
            confirming = slowdown(timed, refuted);
            if (confirming != null) {
              pairIndex = 0;
              pairs.clear();
              break;
            }
          }
        }
        if (pair != null && splitReason == null) {
          TrialOutcome sc = pairRuns.get(HeuristicTrials.SC);
          TrialOutcome adv = pairRuns.get(confirming);
          if (TrialEvidence.comparable(sc, adv)) pairs.add(new PairedRun(sc.millis(), adv.millis()));
          if (paired.confirms(pairs, comparisons)) {
            // a qos field is in the group, and a group cannot say which: split (a slowdown split carries nothing)
            splitReason = String.format(java.util.Locale.ROOT, "runs under %s were slower than under sc in %s",
                confirming, paired.describe(pairs));
          } else if (paired.decided(pairs, comparisons) || pairIndex >= 2 * PairedSlowdown.PAIRS) {
            refuted.add(confirming); // the machine's load: the screen goes on, and the pairs are in the evidence
            confirming = null;
          }
        }
      }
    } finally {
      if (server != null) server.close();
      if (splitReason == null && dir != null) executor.discard(dir);
    }
    if (splitReason != null && stop.getAsBoolean()) {
      return new Result(Map.of(), fields, List.of(), runs, splitReason, jvms, runs);
    }
    if (splitReason != null) {
      List<List<String>> halves = halves(fields, suspects);
      if (splitUnder == null) return new Result(Map.of(), List.of(), halves, runs, splitReason, jvms, runs);
      // The run that split the group (a failure, a timeout, the JVM's end) is nobody's evidence, but the passes before
      // it are each served field's, as in a concluded group (the same argument: any failure splits, and they are
      // passes) — except those under the heuristic that split it: that heuristic's runs stopped at its own failure,
      // so its passes without that failure would be a sample biased towards benign. The other heuristics' runs
      // stopped at a time their own outcomes did not choose. Durations stay out of the timings (as a warm-up's): a
      // qos field of the group may have slowed them. A slowdown split carries nothing.
      String dropped = splitUnder;
      Map<String, List<TrialOutcome>> carried = new LinkedHashMap<>();
      int carriedRuns = 0;
      for (String field : fields) {
        List<TrialOutcome> all = byField.get(field);
        int before = prior.getOrDefault(field, List.of()).size();
        List<TrialOutcome> kept = new ArrayList<>(all.subList(0, before));
        all.subList(before, all.size()).stream().filter(o -> !o.spec().heuristic().equals(dropped))
            .map(GroupScreen::untimed).forEach(kept::add);
        carriedRuns = Math.max(carriedRuns, kept.size() - before);
        if (kept.stream().anyMatch(o -> !o.isControl() && o.staleReads() > 0)) carried.put(field, List.copyOf(kept));
      }
      return new Result(Map.of(), List.of(), halves, runs - carriedRuns, splitReason, jvms, runs, carried);
    }
    Map<String, List<TrialOutcome>> benign = new LinkedHashMap<>();
    List<String> singles = new ArrayList<>();
    for (String field : fields) {
      boolean exercised = byField.get(field).stream().anyMatch(o -> !o.isControl() && o.staleReads() > 0);
      if (exercised) benign.put(field, List.copyOf(byField.get(field)));
      else singles.add(field);
    }
    return new Result(benign, singles, List.of(), 0, null, jvms, runs);
  }

  /**
   * How a group splits: the fields a failing run points at ({@link #suspects}) apart from the rest when they are some
   * but not all of the group, else two halves. Any partition keeps bisection sound — each part is screened again and a
   * field alone is confirmed alone — so the guess only decides how fast: a destructive field named by its failure is
   * tried alone at once, and the benign rest stays one group (halves of five fields leave a benign field beside the
   * destructive one, split off once more and then tried alone: a unit's worth of runs for one benign field).
   */
  static List<List<String>> halves(List<String> fields, List<String> suspects) {
    if (!suspects.isEmpty() && suspects.size() < fields.size()) {
      return List.of(List.copyOf(suspects), fields.stream().filter(f -> !suspects.contains(f)).toList());
    }
    int half = fields.size() / 2;
    return List.of(fields.subList(0, half), fields.subList(half, fields.size()));
  }

  /**
   * The fields a failing group run points at: among those it served stale values (a field served none cannot explain
   * the failure), those whose declaring class the failure's stack or message names (fields of one class are never
   * grouped, so a class names one field); if the failure names none of them, those served stale values.
   */
  static List<String> suspects(List<String> fields, JsonNode run) {
    List<String> served = new ArrayList<>();
    for (JsonNode fc : run.path("fields")) {
      String field = fc.path("field").asText();
      if (fields.contains(field) && fc.path("staleReads").asLong() > 0 && !served.contains(field)) served.add(field);
    }
    JsonNode failure = run.path("failure");
    String text = failure.path("message").asText("") + "\n" + failure.path("stack").asText("");
    List<String> named = served.stream().filter(f -> names(text, declaringClass(f))).toList();
    return named.isEmpty() ? served : named;
  }

  /** Whether a failure's text names a class: its qualified name, or its simple name as a word. */
  private static boolean names(String text, String className) {
    if (text.contains(className + ".") || text.contains(className + "$")) return true;
    String simple = className.substring(className.lastIndexOf('.') + 1);
    return java.util.regex.Pattern.compile("\\b" + java.util.regex.Pattern.quote(simple) + "\\b").matcher(text).find();
  }

  /** {@code o} with its duration left out of timing comparisons (as a warm-up run's). */
  static TrialOutcome untimed(TrialOutcome o) {
    return new TrialOutcome(o.spec(), o.result(), o.millis(), o.reads(), o.staleReads(), o.failure(), o.replayCommand(),
        true, o.freshJvm(), o.pair());
  }

  /** Whether a single-field unit would have stopped this heuristic for this field (benign, unexercised, or at most). */
  private boolean fieldDone(String heuristic, Map<String, StoppingRule.Tally> tallies) {
    StoppingRule.Tally t = tallies.getOrDefault(heuristic, StoppingRule.Tally.EMPTY);
    return t.runs() >= rule.maxRuns() || t.exercisedRuns() >= rule.benignAfter()
        || (t.runs() >= rule.unexercisedAfter() && t.staleReads() == 0);
  }

  /**
   * A heuristic already 1.5× slower than the control in median (5 timed runs a side), other than those whose pairs
   * refuted it: a qos field may be in the group — or the machine got busier while its runs ran. The screen confirms it
   * in back-to-back pairs before it splits.
   */
  private static String slowdown(Map<String, List<Long>> timed, java.util.Set<String> refuted) {
    List<Long> sc = timed.getOrDefault(HeuristicTrials.SC, List.of());
    if (sc.size() < 5) return null;
    double control = VerdictClassifier.median(sc);
    for (Map.Entry<String, List<Long>> e : timed.entrySet()) {
      if (e.getKey().equals(HeuristicTrials.SC) || refuted.contains(e.getKey()) || e.getValue().size() < 5) continue;
      double median = VerdictClassifier.median(e.getValue());
      if (median >= 1.5 * control && median - control >= VerdictClassifier.MIN_SLOWDOWN_MILLIS) return e.getKey();
    }
    return null;
  }

  private TrialServerProcess start(List<String> fields, String testId, Path dir) throws InterruptedException {
    try {
      Files.createDirectories(dir);
      return executor.jvm(testId).serve(TestSelection.of(testId),
          agentOptions(fields, HeuristicTrials.SC, 0, dir.resolve("jumble.jsonl").toString(), List.of()),
          dir.resolve("results.jsonl"), dir.resolve("output.log"), START_TIMEOUT);
    } catch (IOException e) {
      return null;
    }
  }

  /** The agent argument jumbling every field of the group (the replay command repeats it). */
  static String agentOptions(List<String> fields, String heuristic, long seed, String out, List<Integer> indices) {
    return new TrialSpec(String.join(",", fields), "", "", heuristic, seed, indices).agentOptions(out);
  }

  private static String testName(List<TrialCell> group, String field) {
    return group.stream().filter(c -> c.fieldKey().equals(field)).findFirst().orElseThrow().testName();
  }
}
