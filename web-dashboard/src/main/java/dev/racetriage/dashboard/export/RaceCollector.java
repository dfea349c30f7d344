package dev.racetriage.dashboard.export;

import dev.racetriage.dashboard.api.LatestEvidence;
import dev.racetriage.dashboard.api.RaceRow;
import dev.racetriage.dashboard.source.AccessSources;
import dev.racetriage.store.Page;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.detail.RaceDetail;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.RaceQuery;
import dev.racetriage.store.races.RaceSummary;
import java.util.ArrayList;
import java.util.List;

/** Gathers every race matching a query (all pages) with the details an export needs. */
public final class RaceCollector {
  private final TriageStore store;
  private final AccessSources sources;

  public RaceCollector(TriageStore store, AccessSources sources) {
    this.store = store;
    this.sources = sources;
  }

  public List<ExportedRace> collect(RaceQuery filters) {
    List<ExportedRace> races = new ArrayList<>();
    RaceQuery query = filters.page(0, RaceQuery.MAX_LIMIT);
    while (true) {
      Page<RaceSummary> page = store.races().list(query);
      for (RaceSummary summary : page.items()) {
        store.detail(summary.field()).ifPresent(detail -> races.add(exported(detail)));
      }
      if (!page.hasMore() || page.items().isEmpty()) {
        return races;
      }
      query = query.page(query.offset() + page.items().size(), RaceQuery.MAX_LIMIT);
    }
  }

  private ExportedRace exported(RaceDetail detail) {
    LatestEvidence evidence = LatestEvidence.of(detail);
    List<ExportedRace.Access> accesses = new ArrayList<>();
    for (AccessSite site : detail.accesses()) {
      accesses.add(new ExportedRace.Access(
          site.type().name(), site.thread(), site.file(), projectPath(detail, site), site.line(), site.stack()));
    }
    return new ExportedRace(
        RaceRow.of(detail.summary()),
        evidence.summary(),
        evidence.replayCommand(),
        evidence.firstFailure(),
        accesses,
        detail.tests());
  }

  private String projectPath(RaceDetail detail, AccessSite site) {
    return sources.projectPath(detail.summary().field(), site).orElse(null);
  }
}
