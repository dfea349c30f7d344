package dev.racetriage.dashboard.export;

import dev.racetriage.dashboard.api.LatestEvidence;
import dev.racetriage.dashboard.api.RaceListing;
import dev.racetriage.dashboard.api.RaceRow;
import dev.racetriage.dashboard.source.AccessSources;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.detail.RaceDetail;
import dev.racetriage.store.races.AccessSite;
import dev.racetriage.store.races.RaceQuery;
import dev.racetriage.store.races.RaceSummary;
import java.util.ArrayList;
import java.util.List;

/**
 * Gathers every race matching a query (all pages) with the details an export needs. Rows the store cannot read are
 * left out and counted ({@link RaceListing}), so one bad row does not fail every export.
 */
public final class RaceCollector {
  private final TriageStore store;
  private final RaceListing listing;
  private final AccessSources sources;

  public RaceCollector(TriageStore store, AccessSources sources) {
    this.store = store;
    this.listing = new RaceListing(store);
    this.sources = sources;
  }

  /** The exported races, and how many matching rows could not be read. */
  public record Collected(List<ExportedRace> races, int unreadable) {}

  public Collected collect(RaceQuery filters) {
    List<ExportedRace> races = new ArrayList<>();
    int unreadable = 0;
    RaceQuery query = filters.page(0, RaceQuery.MAX_LIMIT);
    while (true) {
      RaceListing.Listed page = listing.list(query);
      for (RaceSummary summary : page.items()) {
        store.detail(summary.field()).ifPresent(detail -> races.add(exported(detail)));
      }
      unreadable += page.unreadable();
      int read = page.items().size() + page.unreadable();
      if (!page.hasMore() || read == 0) {
        return new Collected(races, unreadable);
      }
      query = query.page(query.offset() + read, RaceQuery.MAX_LIMIT);
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
