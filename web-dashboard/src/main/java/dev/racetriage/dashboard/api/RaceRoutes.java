package dev.racetriage.dashboard.api;

import dev.racetriage.dashboard.source.TestCodeRaces;
import dev.racetriage.store.FieldKey;
import dev.racetriage.store.TriageStore;
import dev.racetriage.store.detail.RaceDetail;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.NotFoundResponse;
import java.util.List;

/** {@code GET /api/races} (filtered, sorted, paged list) and {@code GET /api/races/{id}} (the race page's data). */
public final class RaceRoutes {
  private final TriageStore store;
  private final RaceListing listing;
  private final RaceViewBuilder views;

  private final TestCodeRaces testCode;

  public RaceRoutes(TriageStore store, TestCodeRaces testCode, RaceViewBuilder views) {
    this.store = store;
    this.listing = new RaceListing(store);
    this.testCode = testCode;
    this.views = views;
  }

  public void install(Javalin app) {
    app.get("/api/races", this::list);
    app.get("/api/races/{id}", this::detail);
  }

  /**
   * A page of races: {@code items}, {@code total} matching, {@code offset}, {@code limit}; {@code unreadable} rows of
   * this page could not be read and are left out, which {@code note} says (null when none were).
   */
  public record RacePage(List<RaceRow> items, long total, int offset, int limit, int unreadable, String note) {}

  private void list(Context ctx) {
    RaceListing.Listed page = listing.list(RaceListRequest.from(ctx), RaceListRequest.scope(ctx), testCode::contains);
    ctx.json(new RacePage(
        page.items().stream().map(r -> RaceRow.of(r, testCode.contains(r.field().toString()))).toList(), page.total(), page.offset(), page.limit(),
        page.unreadable(), page.unreadable() == 0 ? null : RaceListing.note(page.unreadable())));
  }

  private void detail(Context ctx) {
    FieldKey field = Paths.raceId(ctx);
    RaceDetail detail = store.detail(field).orElseThrow(() -> notFound(field));
    ctx.json(views.build(detail, store.trials().summaries(field)));
  }

  static NotFoundResponse notFound(FieldKey field) {
    return new NotFoundResponse("no race is recorded on " + field);
  }
}
