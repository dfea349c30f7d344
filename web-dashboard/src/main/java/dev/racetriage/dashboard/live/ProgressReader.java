package dev.racetriage.dashboard.live;

import dev.racetriage.dashboard.api.CountsView;
import dev.racetriage.dashboard.api.RaceListing;
import dev.racetriage.dashboard.api.RunRow;
import dev.racetriage.dashboard.source.TestCodeRaces;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.races.CodeScope;
import dev.racetriage.store.races.RaceQuery;
import dev.racetriage.store.marks.AuditEntry;
import dev.racetriage.store.queue.WorkState;
import dev.racetriage.store.runs.RunStatus;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a {@link Progress} snapshot with a handful of indexed queries (queue counts, claimed items, the last runs,
 * verdict counts, the newest audit entry): cheap, and run only after the store's data version moved.
 */
public final class ProgressReader {
  static final int MAX_WORKING_SHOWN = 20;
  static final int RUNS_SCANNED = 10;

  private final TriageStore store;
  private final TestCodeRaces testCode;
  private final RaceListing listing;

  public ProgressReader(TriageStore store, TestCodeRaces testCode) {
    this.store = store;
    this.testCode = testCode;
    this.listing = new RaceListing(store);
  }

  /** The races that are not fixed and live in test code (none but a list walk when the project has any). */
  private List<dev.racetriage.store.races.RaceSummary> testCodeRaces() {
    if (testCode.fieldKeys().isEmpty()) return List.of();
    return listing.list(RaceQuery.all().page(0, RaceQuery.MAX_LIMIT), CodeScope.TEST, testCode::contains).items();
  }

  public Progress read() {
    Map<WorkState, Long> queue = store.queue().counts();
    List<Progress.WorkingItem> working = store.queue().list(WorkState.CLAIMED, MAX_WORKING_SHOWN).stream()
        .map(item -> new Progress.WorkingItem(
            item.field().toString(), item.reason(), item.claimedBy(), item.attempts()))
        .toList();
    List<RunRow> recent = store.runs().recent(RUNS_SCANNED).stream().map(RunRow::of).toList();
    String running = RunStatus.RUNNING.name().toLowerCase(Locale.ROOT);
    return new Progress(
        new Progress.Queue(
            queue.get(WorkState.PENDING), queue.get(WorkState.CLAIMED), queue.get(WorkState.DONE),
            queue.get(WorkState.FAILED)),
        working,
        recent.stream().filter(r -> r.status().equals(running)).toList(),
        recent.isEmpty() ? null : recent.get(0),
        CountsView.of(store.races().counts(), testCodeRaces()),
        store.marks().recentActivity(1).stream().mapToLong(AuditEntry::id).findFirst().orElse(0));
  }
}
