package dev.racetriage.dashboard.live;

import dev.racetriage.dashboard.api.CountsView;
import dev.racetriage.dashboard.api.RunRow;
import java.util.List;

/**
 * What the daemon is doing, as the overview shows it live: the work queue by state, the items being triaged now,
 * runs still running, the newest run, the verdict counts (which change as items finish) and the id of the newest
 * triage action (0 if none; a change tells the page to reload its activity list). Two snapshots are equal exactly
 * when the page would look the same, which is what decides whether an event is pushed.
 */
public record Progress(
    Queue queue,
    List<WorkingItem> working,
    List<RunRow> runningRuns,
    RunRow latestRun,
    CountsView counts,
    long lastActivityId) {

  public record Queue(long pending, long claimed, long done, long failed) {}

  public record WorkingItem(String field, String reason, String claimedBy, int attempts) {}
}
