package dev.racetriage.dashboard.api;

import dev.racetriage.store.trials.HeuristicRates;
import dev.racetriage.store.replay.ReplayTarget;
import dev.racetriage.dashboard.source.AccessSources;
import dev.racetriage.dashboard.source.TestCodeRaces;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.candidates.StaticCandidate;
import dev.racetriage.store.detail.RaceDetail;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.trials.HeuristicSummary;
import dev.racetriage.store.trials.TrialOutcome;
import dev.racetriage.store.trials.TrialRecord;
import dev.racetriage.store.verdicts.VerdictRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** Turns the store's {@link RaceDetail} into the race page's {@link RaceView}, adding source lines from the project. */
public final class RaceViewBuilder {
  static final int SOURCE_CONTEXT_LINES = 3;

  private final AccessSources sources;
  private final java.nio.file.Path projectDir;
  private final TestCodeRaces testCode;

  public RaceViewBuilder(AccessSources sources, java.nio.file.Path projectDir, TestCodeRaces testCode) {
    this.sources = sources;
    this.projectDir = projectDir;
    this.testCode = testCode;
  }

  RaceView build(RaceDetail detail, List<HeuristicSummary> summaries) {
    LatestEvidence evidence = LatestEvidence.of(detail);
    return new RaceView(
        RaceRow.of(detail.summary(), testCode.inTestCode(detail.summary().field(), detail.accesses())),
        distinctSites(detail.accesses()).stream().map(a -> access(detail.summary().field(), a)).toList(),
        detail.tests(),
        heuristics(detail, summaries),
        matrix(detail.trialsByHeuristic()),
        durations(detail.trialsByHeuristic()),
        evidence.summary(),
        evidence.firstFailure(),
        ReplayTarget.decisive(detail).map(t -> t.command(projectDir)).orElse(null),
        evidence.replayCommand(),
        detail.verdictHistory().stream().map(RaceViewBuilder::verdict).toList(),
        detail.events().stream().map(e -> new RaceView.LifecycleEntry(e.state().label(), e.runId(), e.commitId(),
            e.note(), e.at())).toList(),
        detail.auditLog().stream().map(RaceView.AuditRow::of).toList(),
        candidate(detail.candidate()));
  }

  /**
   * One entry per access type and place: the detector reports a site again for every stack that reached it, and a
   * page listing the same read twice says nothing more (the first report, which has the stack, is kept).
   */
  static List<AccessSite> distinctSites(List<AccessSite> accesses) {
    java.util.Set<String> seen = new java.util.HashSet<>();
    return accesses.stream().filter(a -> seen.add(a.type() + " " + a.file() + ":" + a.line())).toList();
  }

  private RaceView.Access access(FieldKey field, AccessSite site) {
    return new RaceView.Access(
        site.type().name(), site.thread(), site.file(), site.line(), site.stack(),
        sources.excerpt(field, site, SOURCE_CONTEXT_LINES).orElse(null));
  }

  /** The stored aggregates with the rates and the median of {@link HeuristicRates} (one computation for every view). */
  private static List<RaceView.HeuristicRow> heuristics(RaceDetail detail, List<HeuristicSummary> summaries) {
    Map<String, HeuristicRates> rates = new LinkedHashMap<>();
    HeuristicRates.of(detail.trialsByHeuristic()).forEach(r -> rates.put(r.heuristic(), r));
    return summaries.stream().map(s -> {
      HeuristicRates r = rates.get(s.heuristic());
      return new RaceView.HeuristicRow(s.heuristic(), s.runs(), s.failures(), s.timeouts(), s.reads(), s.staleReads(),
          s.failureRate(), s.staleReadRate(), r == null ? s.meanDuration().toMillis() : r.medianMillis(),
          s.maxDuration().toMillis());
    }).toList();
  }

  /** Each heuristic's trial durations in milliseconds, in the store's order ({@code sc} first). */
  static Map<String, List<Long>> durations(Map<String, List<TrialRecord>> byHeuristic) {
    Map<String, List<Long>> durations = new LinkedHashMap<>();
    byHeuristic.forEach((heuristic, trials) ->
        durations.put(heuristic, trials.stream().map(t -> t.trial().duration().toMillis()).toList()));
    return durations;
  }

  static RaceView.TrialMatrix matrix(Map<String, List<TrialRecord>> byHeuristic) {
    List<String> heuristics = List.copyOf(byHeuristic.keySet());
    TreeSet<String> tests = new TreeSet<>();
    byHeuristic.values().forEach(list -> list.forEach(t -> tests.add(t.trial().test())));
    List<RaceView.MatrixRow> rows = new ArrayList<>();
    for (String test : tests) {
      List<RaceView.Cell> cells = new ArrayList<>();
      for (String heuristic : heuristics) {
        int runs = 0;
        int failures = 0;
        int timeouts = 0;
        long stale = 0;
        for (TrialRecord record : byHeuristic.get(heuristic)) {
          if (record.trial().test().equals(test)) {
            runs++;
            failures += record.trial().outcome() == TrialOutcome.FAIL ? 1 : 0;
            timeouts += record.trial().outcome() == TrialOutcome.TIMEOUT ? 1 : 0;
            stale += record.trial().staleReads();
          }
        }
        cells.add(new RaceView.Cell(runs, failures, timeouts, stale));
      }
      rows.add(new RaceView.MatrixRow(test, cells));
    }
    return new RaceView.TrialMatrix(heuristics, rows);
  }

  private static RaceView.VerdictEntry verdict(VerdictRecord v) {
    return new RaceView.VerdictEntry(
        v.verdict().label(), v.evidence().summary(), v.decidedAt(), v.runId(), v.evidence().replayCommand(),
        new TreeMap<>(v.evidence().facts()));
  }

  private static RaceView.Candidate candidate(StaticCandidate c) {
    return c == null ? null : new RaceView.Candidate(c.file(), c.line(), c.confidence(), c.patterns(), c.reasons());
  }
}
