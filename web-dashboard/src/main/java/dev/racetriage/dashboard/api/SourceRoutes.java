package dev.racetriage.dashboard.api;

import dev.racetriage.dashboard.source.ProjectFiles;
import dev.racetriage.dashboard.source.SourceAccessDenied;
import io.javalin.Javalin;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import io.javalin.http.ForbiddenResponse;
import io.javalin.http.NotFoundResponse;

/**
 * {@code GET /api/source?path=src/main/java/…/Cache.java&line=42&context=10}: lines of a source file of the project,
 * and nothing else — {@link ProjectFiles} refuses paths that leave the project, hidden files and non-source files.
 */
public final class SourceRoutes {
  static final int MAX_CONTEXT = 200;

  private final ProjectFiles files;

  public SourceRoutes(ProjectFiles files) {
    this.files = files;
  }

  public void install(Javalin app) {
    app.get("/api/source", this::source);
  }

  private void source(Context ctx) {
    int line = number(ctx, "line", 1);
    int context = Math.min(MAX_CONTEXT, Math.max(0, number(ctx, "context", 10)));
    try {
      ctx.json(files.excerpt(ctx.queryParam("path"), line, context));
    } catch (SourceAccessDenied e) {
      throw new ForbiddenResponse(e.getMessage());
    } catch (ProjectFiles.NoSuchSourceFile e) {
      throw new NotFoundResponse(e.getMessage());
    }
  }

  private static int number(Context ctx, String name, int fallback) {
    String value = ctx.queryParam(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new BadRequestResponse(name + " must be a number");
    }
  }
}
