package dev.racetriage.dashboard.pages;

import io.javalin.Javalin;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The pages: static HTML shells (no data, no inline script) whose scripts under {@code /assets/js/} fetch the JSON
 * API and build the DOM with {@code textContent}, so nothing from test output or source is ever parsed as HTML.
 * {@code /} is the overview, {@code /races} the table, {@code /races/{id}} a race, {@code /workers} the worker
 * processes and the trial queue.
 */
public final class PageRoutes {
  static final String BASE = "/dev/racetriage/dashboard/web/pages/";

  private final String overview = resource("overview.html");
  private final String races = resource("races.html");
  private final String race = resource("race.html");
  private final String workers = resource("workers.html");

  public void install(Javalin app) {
    app.get("/", ctx -> ctx.html(overview));
    app.get("/races", ctx -> ctx.html(races));
    app.get("/races/{id}", ctx -> ctx.html(race));
    app.get("/workers", ctx -> ctx.html(workers));
  }

  public static String resource(String name) {
    try (InputStream in = PageRoutes.class.getResourceAsStream(BASE + name)) {
      if (in == null) {
        throw new IllegalStateException(BASE + name + " is missing from the racetriage-web-dashboard jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + BASE + name, e);
    }
  }
}
