package dev.racetriage.dashboard.export;

import dev.racetriage.dashboard.api.LatestEvidence;
import dev.racetriage.dashboard.api.RaceListing;
import dev.racetriage.dashboard.api.RaceRow;
import dev.racetriage.dashboard.source.AccessSources;
import dev.racetriage.store.races.CodeScope;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.detail.RaceDetail;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.RaceQuery;
import dev.racetriage.store.races.RaceSummary;
import dev.racetriage.store.candidates.StaticCandidate;
import dev.racetriage.store.races.Lifecycle;
import dev.racetriage.store.replay.ReplayTarget;
import dev.racetriage.store.runs.Run;
import dev.racetriage.store.runs.RunStatus;
import dev.racetriage.store.trials.HeuristicRates;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Gathers every race matching a query (all pages) with the details an export needs. Rows the store cannot read are
 * left out and counted ({@link RaceListing}), so one bad row does not fail every export.
 */
public final class RaceCollector {
  /** Run kinds that detect races: the latest of them tells which races it re-checked. */
  private static final Set<String> DETECTING = Set.of("triage", "detect", "daemon-detect");

  private final TriageStore store;
  private final RaceListing listing;
  private final AccessSources sources;
  private final Function<StaticCandidate, List<String>> advice;

  public RaceCollector(TriageStore store, AccessSources sources) {
    this(store, sources, candidate -> List.of());
  }

  /** {@code advice}: the fixes to suggest for a field the static prefilter flagged (its patterns'). */
  public RaceCollector(TriageStore store, AccessSources sources, Function<StaticCandidate, List<String>> advice) {
    this.store = store;
    this.listing = new RaceListing(store);
    this.sources = sources;
    this.advice = advice;
  }

  /** The exported races, and how many matching rows could not be read. */
  public record Collected(List<ExportedRace> races, int unreadable) {}

  public Collected collect(RaceQuery filters) {
    return collect(filters, CodeScope.ALL);
  }

  /** As {@link #collect(RaceQuery)}, keeping the races of {@code scope} (product, test code or all). */
  public Collected collect(RaceQuery filters, CodeScope scope) {
    List<ExportedRace> races = new ArrayList<>();
    int unreadable = 0;
    Run latest = store.runs().recent(200).stream()
        .filter(r -> r.status() == RunStatus.SUCCEEDED && DETECTING.contains(r.kind())).findFirst().orElse(null);
    RaceQuery query = filters.page(0, RaceQuery.MAX_LIMIT);
    while (true) {
      RaceListing.Listed page = listing.list(query);
      for (RaceSummary summary : page.items()) {
        store.detail(summary.field()).map(detail -> exported(detail, latest))
            .filter(race -> scope.includes(race.testCode())).ifPresent(races::add);
      }
      unreadable += page.unreadable();
      int read = page.items().size() + page.unreadable();
      if (!page.hasMore() || read == 0) {
        return new Collected(races, unreadable);
      }
      query = query.page(query.offset() + read, RaceQuery.MAX_LIMIT);
    }
  }

  private ExportedRace exported(RaceDetail detail, Run latest) {
    LatestEvidence evidence = LatestEvidence.of(detail);
    List<ExportedRace.Access> accesses = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (AccessSite site : detail.accesses()) {
      ExportedRace.Access access = new ExportedRace.Access(
          site.type().name(), site.thread(), site.file(), projectPath(detail, site), site.line(), site.stack());
      // one site reached through different stacks is one line of the report (the first, most detailed, is kept)
      if (seen.add(access.type() + " " + access.location())) accesses.add(access);
    }
    RaceSummary summary = detail.summary();
    ExportedRace.Fixed fixed = summary.lifecycle() != Lifecycle.FIXED ? null
        : detail.events().stream().filter(e -> e.state() == Lifecycle.FIXED).reduce((a, b) -> b)
            .map(e -> new ExportedRace.Fixed(e.runId(), e.commitId(), e.at(), e.note())).orElse(null);
    boolean testCode = CodeScope.inTestCode(accesses.stream().map(ExportedRace.Access::projectPath).toList());
    String recheck = summary.lifecycle() == Lifecycle.FIXED || latest == null || summary.lastRunId() == null
        || summary.lastRunId() >= latest.id() ? null
        : "not re-checked by the latest " + latest.kind() + " (run #" + latest.id() + "): the tests that exercised it "
            + "did not all run and pass there; last seen by run #" + summary.lastRunId();
    List<String> fixes = detail.candidate() == null ? List.of() : advice.apply(detail.candidate());
    return new ExportedRace(
        RaceRow.of(summary, testCode),
        evidence.summary(),
        ReplayTarget.decisive(detail).map(t -> t.command(store.projectDir())).orElse(null),
        evidence.replayCommand(),
        evidence.firstFailure(),
        accesses,
        detail.tests(),
        HeuristicRates.of(detail.trialsByHeuristic()),
        fixes,
        fixed,
        testCode,
        recheck);
  }


  private String projectPath(RaceDetail detail, AccessSite site) {
    return sources.projectPath(detail.summary().field(), site).orElse(null);
  }
}
