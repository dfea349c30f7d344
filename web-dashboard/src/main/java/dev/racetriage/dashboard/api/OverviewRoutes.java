package dev.racetriage.dashboard.api;

import dev.racetriage.dashboard.live.Progress;
import dev.racetriage.dashboard.live.ProgressFeed;
import dev.racetriage.dashboard.live.ProgressReader;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.marks.AuditEntry;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.time.Instant;
import java.util.List;

/** {@code GET /api/overview} (counts, recent runs, progress, recent triage activity) and {@code GET /api/events}. */
public final class OverviewRoutes {
  static final int RECENT_RUNS = 10;
  static final int RECENT_ACTIVITY = 10;

  private final TriageStore store;
  private final ProgressReader progress;
  private final ProgressFeed feed;

  public OverviewRoutes(TriageStore store, ProgressReader progress, ProgressFeed feed) {
    this.store = store;
    this.progress = progress;
    this.feed = feed;
  }

  public void install(Javalin app) {
    app.get("/api/overview", this::overview);
    app.sse("/api/events", feed::join);
  }

  public record Overview(
      CountsView counts, List<RunRow> recentRuns, Progress progress, List<Activity> recentActivity,
      String project) {}

  /** A recent triage action anywhere in the project. */
  public record Activity(String race, String action, String author, String note, Instant at) {}

  private void overview(Context ctx) {
    Progress now = progress.read();
    ctx.json(new Overview(
        now.counts(),
        store.runs().recent(RECENT_RUNS).stream().map(RunRow::of).toList(),
        now,
        store.marks().recentActivity(RECENT_ACTIVITY).stream().map(OverviewRoutes::activity).toList(),
        store.projectDir().getFileName() == null ? store.projectDir().toString()
            : store.projectDir().getFileName().toString()));
  }

  private static Activity activity(AuditEntry e) {
    return new Activity(
        e.field().toString(), RaceView.AuditRow.label(e.action()), e.author(), e.note(), e.at());
  }
}
