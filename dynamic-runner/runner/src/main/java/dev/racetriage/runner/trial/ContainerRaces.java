package dev.racetriage.runner.trial;

import dev.racetriage.runner.verdict.Classification;
import dev.racetriage.runner.verdict.HeuristicTrials;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Container races ({@code pkg.Cls.map{}}: two threads' calls on one of the JDK's unsynchronised containers, the agent's
 * {@code ContainerModel}) in the trials. Adversarial memory does not apply inside {@code java.*}, so such a race is
 * tried under {@code sc} (the control: the agent counts the calls and the calls that overlapped, and changes nothing)
 * and {@code perturb} (the agent's {@code ContainerTrials}: seeded waits for another thread at the container's calls,
 * so they run side by side). The agent reports calls as reads and overlapping calls as stale reads, so the verdict
 * rules are the usual ones: <b>destructive</b> when the perturbed runs fail (significantly more often than the control,
 * where it fails too), never <b>qos</b> (a perturbed run is slower by its own waits), <b>unexercised</b> when no perturbed run made two calls overlap, <b>benign</b> when calls
 * overlapped and no perturbed run failed in N runs — for a container: the program's results did not depend on the
 * interleaving of those calls in N runs (a cache whose lost entries are recomputed), a statement about a failure rate
 * as for any benign race, not a proof that the container is safe. Their summaries say so in a container's words.
 */
public final class ContainerRaces {
  /** The heuristic of the perturbed runs. */
  public static final String PERTURB = "perturb";

  private ContainerRaces() {
  }

  /** Whether {@code fieldKey} names a container race. */
  public static boolean isContainer(String fieldKey) {
    return fieldKey.endsWith("{}");
  }

  /** The heuristics a race is tried under: for a container, {@code sc} (when asked for) and {@code perturb}. */
  public static List<String> heuristics(String fieldKey, List<String> asked) {
    if (!isContainer(fieldKey)) return asked;
    List<String> heuristics = new ArrayList<>();
    if (asked.contains("sc")) heuristics.add("sc");
    heuristics.add(PERTURB);
    return heuristics;
  }

  /**
   * Whether the durations of runs under {@code heuristic} are evidence for the qos rule: not under {@code perturb},
   * whose runs are slower by the perturbation's own waits (up to 1 ms per call), whatever the program does.
   */
  public static boolean durationsAreEvidence(String heuristic) {
    return !PERTURB.equals(heuristic);
  }

  /** A container race's evidence for the verdict rules: the perturbed runs' durations left out (see above). */
  public static List<HeuristicTrials> evidence(String fieldKey, List<HeuristicTrials> trials) {
    if (!isContainer(fieldKey)) return trials;
    return trials.stream().map(t -> durationsAreEvidence(t.heuristic()) ? t
        : new HeuristicTrials(t.heuristic(), t.runs(), t.explainedFailures(), t.unexplainedFailures(), t.reads(),
            t.staleReads(), List.of(), t.timeouts())).toList();
  }

  /** {@link #described(String, Classification, List)} without the control's per-run evidence. */
  public static Classification described(String fieldKey, Classification c) {
    return described(fieldKey, c, List.of());
  }

  /**
   * The classification of a container race, its summary in a container's words (calls and overlaps, not stale
   * values). Unlike {@code sc} for a field, the control can exercise a container race: the threads' calls may overlap
   * on their own. So a control that failed only in runs whose calls overlapped or interleaved (the agent's control
   * counts both; interleaved: a thread's call after another thread's not ordered before it, one of them a mutator)
   * does not make the race flaky: it is destructive, and says that it fails without perturbation too. A control
   * failure in a run with neither is one the race cannot explain: flaky, as for any race.
   */
  public static Classification described(String fieldKey, Classification c, List<HeuristicTrials> evidence) {
    if (!isContainer(fieldKey)) return c;
    HeuristicTrials sc = evidence.stream().filter(HeuristicTrials::isControl).findFirst().orElse(null);
    if (c.verdict() == dev.racetriage.store.verdicts.Verdict.FLAKY && "sc".equals(c.decisiveHeuristic())
        && sc != null && sc.failures() > 0 && sc.unexplainedFailures() == 0) {
      String perturbed = evidence.stream().filter(t -> t.heuristic().equals(PERTURB)).findFirst()
          .map(t -> ", " + t.failures() + "/" + t.runs() + " under perturb").orElse("");
      c = new Classification(dev.racetriage.store.verdicts.Verdict.DESTRUCTIVE, String.format(Locale.ROOT,
          "%d/%d runs failed under sc%s, each with calls on the container that overlapped or interleaved on their own:"
              + " the race"
              + " fails the test without perturbation too", sc.failures(), sc.runs(), perturbed), "sc", c.facts());
    }
    String overlaps = c.facts().get(PERTURB + ".staleReads");
    String summary = switch (c.verdict()) {
      case UNEXERCISED -> c.summary().startsWith("no stale value") || c.summary().startsWith("the tests never")
          ? "the perturbed runs never made two calls on the container overlap (one of them a mutator)" : c.summary();
      case BENIGN -> String.format(Locale.ROOT, "%s overlapping calls on the container under perturbation, no failure"
          + " and no slowdown: the results did not depend on how the calls interleaved", overlaps);
      default -> c.summary().replace("the stale values make the test fail", "perturbing the calls makes the test fail")
          .replace(", where every read returns the latest value", " (no perturbation)")
          .replace(" with stale values under " + PERTURB, " under " + PERTURB);
    };
    Map<String, String> facts = new LinkedHashMap<>(c.facts());
    facts.put("container", "tried by schedule perturbation at the container's calls (sc: none, perturb: seeded waits"
        + " for another thread); stale reads count calls that overlapped another thread's call");
    return new Classification(c.verdict(), summary, c.decisiveHeuristic(), facts);
  }
}
